import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memories, queries } from '../eval/retrieval/dataset.js';
import { startTestServer, type ApiClient, type TestServer } from '../support/server.js';

/**
 * Search and context parity: the embedded mode (SQLite + exact index) and the production mode (MongoDB protocol +
 * Elasticsearch + BullMQ) are fed the same corpus through POST /v1/batch and asked the same queries; their top
 * results must agree. It compares whatever the read paths return, so it holds for any retrieval both modes share.
 */
const USERS = ['u_maya', 'u_tom', 'u_lena'];
const corpus = memories.filter((m) => USERS.includes(m.user_id));
const asked = queries.filter((q) => USERS.includes(q.user_id));

let embedded: TestServer;
let production: TestServer;

async function load(api: ApiClient): Promise<Map<string, string>> {
  const batch = (await api.post('/v1/batch', { memories: corpus.map((m) => ({ content: m.content, user_id: m.user_id, metadata: { key: m.key } })) })).body;
  for (const deadline = Date.now() + 600_000; ; ) {
    const body = (await api.get(`/v1/batch/${batch.id}`)).body;
    if (body.status === 'completed') break;
    if (Date.now() > deadline) throw new Error('batch did not complete');
    await new Promise((r) => setTimeout(r, 200));
  }
  const keyOf = new Map<string, string>();
  for (const user of USERS) {
    for (const m of (await api.get(`/v1/memories?user_id=${user}&limit=200`)).body.memories) keyOf.set(m.id, m.metadata.key);
  }
  // fact id -> key of its first source memory, so context sources compare across modes
  for (const user of USERS) {
    for (const f of (await api.get(`/v1/facts?user_id=${user}&limit=200`)).body.facts) keyOf.set(f.id, `fact:${f.subject}|${f.predicate}|${f.object}`);
  }
  return keyOf;
}

async function rankings(api: ApiClient, keyOf: Map<string, string>) {
  const search: string[][] = [];
  const context: string[][] = [];
  for (const q of asked) {
    const hits = (await api.post('/v1/memories/search', { query: q.query, user_id: q.user_id, limit: 5 })).body.results;
    search.push(hits.map((h: any) => keyOf.get(h.id) ?? h.id));
    const ctx = (await api.get(`/v1/context?query=${encodeURIComponent(q.query)}&user_id=${q.user_id}&token_budget=400`)).body;
    context.push((ctx.sources as string[]).map((id) => keyOf.get(id) ?? id));
  }
  return { search, context };
}

function agreement(a: string[][], b: string[][], k: number) {
  let top1 = 0;
  let overlap = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i][0] === b[i][0]) top1++;
    const left = new Set(a[i].slice(0, k));
    const right = b[i].slice(0, k);
    overlap += right.filter((x) => left.has(x)).length / Math.max(1, Math.min(k, Math.max(left.size, right.length)));
  }
  return { top1: top1 / a.length, overlap: overlap / a.length };
}

beforeAll(async () => {
  [embedded, production] = await Promise.all([startTestServer({}, { mode: 'embedded' }), startTestServer({}, { mode: 'production' })]);
});

afterAll(async () => {
  await Promise.all([embedded?.close(), production?.close()]);
});

describe('embedded and production modes rank the same corpus alike', () => {
  it('search and context agree on their top results', async () => {
    expect(production.services.store.kind).toBe('mongodb');
    expect(production.services.vectors.kind).toBe('elasticsearch');
    const [e, p] = await Promise.all([load(embedded.api()), load(production.api())]);
    const left = await rankings(embedded.api(), e);
    const right = await rankings(production.api(), p);
    const search = agreement(left.search, right.search, 5);
    const context = agreement(left.context, right.context, 5);
    console.log(JSON.stringify({ queries: asked.length, memories: corpus.length, search, context }));
    expect(search.top1).toBeGreaterThanOrEqual(0.95);
    expect(search.overlap).toBeGreaterThanOrEqual(0.9);
    // Both keyword sides are BM25 over the same stems, yet FTS5 and Lucene differ in length normalisation and
    // statistics; facts said in one memory share its score and must not be ordered by their (random) ids. Measured
    // 1.0 and 1.0 over runs; the floors leave room for a close keyword call to swap.
    expect(context.top1).toBeGreaterThanOrEqual(0.95);
    expect(context.overlap).toBeGreaterThanOrEqual(0.95);
  });
});
