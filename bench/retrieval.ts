/**
 * Read-path benchmark: loads 1k, 10k and 100k memories into one workspace
 * (1k per user) and measures search and context latency over real HTTP.
 *   npx tsx bench/retrieval.ts [sizes…]      e.g. npx tsx bench/retrieval.ts 1000 10000
 *   npx tsx bench/retrieval.ts --production 100000
 *   npx tsx bench/retrieval.ts --keep DIR 1000000   (embedded: loads into DIR once, later runs read what it holds)
 * Prints one JSON object on stdout. Memories are written straight into the
 * store and vector index (the write pipeline has its own benchmarks); reads go
 * through the full HTTP stack with keep-alive, one request at a time. Each memory
 * is a dataset text, a place and a note number. With the default embedder the
 * sentence encoder runs once per text and place and the lexical part of the vector
 * once per memory (note number included), so that a million distinct vectors load
 * in minutes rather than an hour of encoder time. Where a workspace is searched
 * through its graph, the output gives the graph's recall@10 against an exact scan.
 * --production runs the API on MongoDB, Elasticsearch and Redis instead of the embedded default: the servers of
 * `npm run backends:up` (its REDIS_URL, MONGODB_URL and ELASTICSEARCH_URL in the environment), in a database,
 * index and queue prefix of the bench's own, dropped at the end.
 */
import { cpus } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../core/config.js';
import { createKey } from '../core/commands/keys.js';
import { createLogger } from '../core/logger.js';
import { derivedId } from '../core/ids.js';
import { startServer } from '../api/server.js';
import { factRules } from '../pipeline/extraction/fact-rules.js';
import { metadataTerms, type VectorIndex } from '../storage/vector/types.js';
import { EmbeddedVectorIndex } from '../storage/vector/embedded.js';
import { createEmbedder, MODEL_DENSE_WEIGHT } from '../pipeline/embedding/index.js';
import type { Embedder } from '../pipeline/types.js';
import { memories as templates, queries } from '../test/eval/retrieval/dataset.js';
import type { MemoryRecord } from '../storage/types.js';
import { fact as factFixture } from '../storage/contract/fixtures.js';
import { dropProductionData, productionEnv } from '../test/support/backends.js';

const PER_USER = 1_000;
const QUERIES = 300;
const CACHE_DIR = join(tmpdir(), 'engram-test-cache');
const production = process.argv.includes('--production');
const keepAt = process.argv.indexOf('--keep');
/** A data folder kept between runs, so that read-path changes are measured at a million without loading it again. */
const keepDir = keepAt > 0 ? process.argv[keepAt + 1] : undefined;
const sizes = process.argv.slice(2).filter((arg, i, args) => args[i - 1] !== '--keep').map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1_000, 10_000, 100_000);

const FILLERS = ['Lisbon', 'Kraków', 'Osaka', 'Denver', 'Nairobi', 'Tromsø', 'Quito', 'Hanoi', 'Adelaide', 'Porto'];

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
}

/**
 * The vectors of memories `ids`: the pipeline embedder's vector of each one's text and place, its
 * lexical part (the joined default's last dimensions) replaced by the lexical vector of the whole content.
 */
async function benchVectors(embedder: Embedder, lexical: Embedder, cache: Map<string, Float32Array>, ids: number[]) {
  const missing = [...new Set(ids.map(textOf).filter((text) => !cache.has(text)))];
  if (missing.length > 0) (await embedder.embed(missing)).forEach((v, i) => cache.set(missing[i], v));
  const joined = embedder.dimensions > lexical.dimensions;
  const own = joined ? await lexical.embed(ids.map(contentOf)) : [];
  return ids.map((id, i) => {
    const v = new Float32Array(cache.get(textOf(id))!);
    if (joined) {
      const scale = Math.sqrt(1 - MODEL_DENSE_WEIGHT);
      own[i].forEach((x, d) => (v[embedder.dimensions - lexical.dimensions + d] = x * scale));
    }
    return v;
  });
}

/**
 * recall@10 of workspace-wide searches against an exact scan of every persisted vector (one pass for all queries),
 * and, because memories that differ only in a note number score nearly alike, how close the graph's ten come to
 * the exact ten in cosine: `scoreRatio` (mean cosine of the graph's ten over the exact ten's) and `withinTies`
 * (the share of the graph's ten scoring at least the exact tenth's cosine less 0.001).
 */
async function graphRecall(vectors: VectorIndex, workspaceId: string, queryVectors: Float32Array[]) {
  const k = 10;
  const graphHits = await Promise.all(queryVectors.map(async (q) => new Set((await vectors.search(q, { workspaceId }, k)).map((h) => h.id))));
  const exact = queryVectors.map(() => [] as { id: string; score: number }[]);
  const graphScores = queryVectors.map(() => [] as number[]);
  for await (const { id, vector } of vectors.exportVectors(workspaceId)) {
    queryVectors.forEach((q, j) => {
      let score = 0;
      for (let d = 0; d < q.length; d++) score += q[d] * vector[d];
      if (graphHits[j].has(id)) graphScores[j].push(score);
      const top = exact[j];
      if (top.length === k && score <= top[k - 1].score) return;
      top.push({ id, score });
      top.sort((a, b) => b.score - a.score);
      if (top.length > k) top.pop();
    });
  }
  let found = 0;
  let ratio = 0;
  let withinTies = 0;
  for (const [j, top] of exact.entries()) {
    found += top.filter((e) => graphHits[j].has(e.id)).length;
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    ratio += sum(graphScores[j]) / sum(top.map((e) => e.score));
    withinTies += graphScores[j].filter((score) => score >= top[top.length - 1].score - 0.001).length;
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    recallAt10: round(found / (queryVectors.length * k)),
    scoreRatio: round(ratio / queryVectors.length),
    withinTies: round(withinTies / (queryVectors.length * k)),
  };
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};

/** What memory i's vector embeds: its dataset text and place, without the note number. */
const textOf = (i: number) => `${templates[i % templates.length].content} (${FILLERS[i % FILLERS.length]})`;
const contentOf = (i: number) => `${templates[i % templates.length].content} (${FILLERS[i % FILLERS.length]}, note ${i})`;

async function measure(n: number) {
  // productionEnv brings its own (unused) data folder, database, index and queue prefix.
  const backends = production ? productionEnv('bench-retrieval') : { DATA_DIR: keepDir ? join(keepDir, String(n)) : mkdtempSync(join(tmpdir(), 'engram-bench-')) };
  const dataDir = backends.DATA_DIR;
  const config = loadConfig({ ...backends, PORT: '0', HOST: '127.0.0.1', CACHE_DIR, LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '1000000' });
  let server = await startServer(config, { logger: createLogger('silent') });
  try {
    const { store, vectors, pipeline } = server.services;
    const loaded = keepDir !== undefined && (await store.workspaces.getBySlug('bench')) !== null;
    const created = await createKey(store, { workspace: 'bench', plan: 'scale' });
    const ws = (await store.workspaces.getBySlug('bench'))!.id;
    const users = Math.max(1, Math.ceil(n / PER_USER));

    const loadStarted = performance.now();
    const phases = { embed: 0, memories: 0, vectors: 0, facts: 0, graph: 0 };
    const phase = async <T>(name: keyof typeof phases, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        phases[name] += performance.now() - started;
      }
    };
    const vectorOf = new Map<string, Float32Array>();
    const lexical = await createEmbedder({ ...config, EMBEDDER: 'glove' });
    const now = new Date().toISOString();
    for (let offset = 0; offset < (loaded ? 0 : n); offset += 1_000) {
      const chunk: MemoryRecord[] = [];
      for (let i = offset; i < Math.min(n, offset + 1_000); i++) {
        chunk.push({
          id: derivedId('mem', 'bench', i),
          workspaceId: ws,
          userId: `user${i % users}`,
          agentId: null,
          runId: null,
          content: contentOf(i),
          metadata: {},
          status: 'ready',
          error: null,
          version: 1,
          seq: i + 1,
          referenceTime: null,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
        });
      }
      const embedded = await phase('embed', () => benchVectors(pipeline.embedder, lexical, vectorOf, chunk.map((m) => m.seq - 1)));
      await phase('memories', () => store.memories.insertMany(chunk));
      await phase('vectors', () =>
        vectors.upsert(
          chunk.map((m, i) => ({ id: m.id, workspaceId: ws, agentId: null, userId: m.userId, runId: null, metadataTerms: metadataTerms(m.metadata), vector: embedded[i], text: m.content })),
        ),
      );
      // A few live facts per user, as extraction would leave them.
      for (const m of chunk.filter((_, i) => i % 50 === 0)) {
        const object = FILLERS[m.seq % FILLERS.length];
        const fact = factFixture(ws, {
          id: derivedId('fct', m.id),
          userId: m.userId,
          object,
          objectKey: factRules.normalizeObject(object),
          validFrom: now,
          lastConfirmedAt: now,
          createdAt: now,
          confirmations: [m.id],
          sourceMemoryId: m.id,
          sourceMemoryIds: [m.id],
          seq: m.seq,
        });
        await phase('facts', () => store.facts.insert(fact));
      }
    }
    // A workspace past the graph's threshold keeps being searched exactly until its graph holds every row.
    if (vectors instanceof EmbeddedVectorIndex) await phase('graph', () => vectors.indexed());
    const loadMs = performance.now() - loadStarted;
    const graph = vectors instanceof EmbeddedVectorIndex && vectors.usesGraph(ws);
    const graphQuality = graph ? await graphRecall(vectors, ws, await Promise.all(queries.slice(0, 20).map((q) => pipeline.embedder.embedQuery?.(q.query) ?? pipeline.embedder.embed([q.query]).then(([v]) => v)))) : undefined;

    const headers = { Authorization: `Bearer ${created.key}`, 'Content-Type': 'application/json' };
    const time = async (request: () => Promise<Response>) => {
      const started = performance.now();
      const res = await request();
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return performance.now() - started;
    };
    const run = async (scope: 'workspace' | 'user') => {
      const search: number[] = [];
      const context: number[] = [];
      for (let i = 0; i < QUERIES + 20; i++) {
        const q = queries[i % queries.length].query;
        const user: Record<string, string> = scope === 'user' ? { user_id: `user${i % users}` } : {};
        const s = await time(() => fetch(`${server.url}/v1/memories/search`, { method: 'POST', headers, body: JSON.stringify({ query: q, ...user }) }));
        const qs = new URLSearchParams({ query: q, ...user });
        const c = await time(() => fetch(`${server.url}/v1/context?${qs}`, { headers }));
        if (i >= 20) {
          // the first 20 warm up the JIT and caches
          search.push(s);
          context.push(c);
        }
      }
      return { scope, search: summary(search), context: summary(context) };
    };
    const seconds = (ms: number) => Math.round(ms / 10) / 100;
    const megabytes = () => Math.round(process.memoryUsage().rss / 1e6);
    const rssMegabytes = megabytes();
    const results = [await run('workspace'), await run('user')];
    // A restart on the same data folder: closing saves the graphs, starting loads them.
    let restart;
    if (!production) {
      const closing = performance.now();
      await server.close();
      const closeSeconds = seconds(performance.now() - closing);
      const starting = performance.now();
      server = await startServer(config, { logger: createLogger('silent') });
      const startSeconds = seconds(performance.now() - starting);
      const first = await time(() => fetch(`${server.url}/v1/memories/search`, { method: 'POST', headers, body: JSON.stringify({ query: queries[0].query }) }));
      restart = { closeSeconds, startSeconds, firstSearchMs: Math.round(first * 100) / 100};
    }
    return {
      memories: n,
      users,
      loadSeconds: seconds(loadMs),
      ...(loaded ? { loadedBefore: true } : {}),
      loadPhaseSeconds: Object.fromEntries(Object.entries(phases).map(([name, ms]) => [name, seconds(ms)])),
      rssMegabytes,
      workspaceSearch: graph ? { index: 'graph', ...graphQuality } : { index: 'exact' },
      results,
      restart,
    };
  } finally {
    await server.close();
    if (production) await dropProductionData(backends);
    if (!keepDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (const n of sizes) results.push(await measure(n));
console.log(
  JSON.stringify({
    machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version },
    mode: production ? 'production (MongoDB, Elasticsearch, Redis)' : 'embedded',
    queriesPerCase: QUERIES,
    latencyMs: results,
  }),
);
