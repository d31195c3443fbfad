/**
 * Read-path benchmark: loads 1k, 10k and 100k memories into one workspace
 * (1k per user) and measures search and context latency over real HTTP.
 *   npx tsx bench/retrieval.ts [sizes…]      e.g. npx tsx bench/retrieval.ts 1000 10000
 *   npx tsx bench/retrieval.ts --production 100000
 * Prints one JSON object on stdout. Memories are written straight into the
 * store and vector index (the write pipeline has its own benchmarks); reads go
 * through the full HTTP stack with keep-alive, one request at a time.
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
import { metadataTerms } from '../storage/vector/types.js';
import { memories as templates, queries } from '../test/eval/retrieval/dataset.js';
import type { MemoryRecord } from '../storage/types.js';
import { fact as factFixture } from '../storage/contract/fixtures.js';
import { dropProductionData, productionEnv } from '../test/support/backends.js';

const PER_USER = 1_000;
const QUERIES = 300;
const CACHE_DIR = join(tmpdir(), 'engram-test-cache');
const production = process.argv.includes('--production');
const sizes = process.argv.slice(2).map(Number).filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1_000, 10_000, 100_000);

const FILLERS = ['Lisbon', 'Kraków', 'Osaka', 'Denver', 'Nairobi', 'Tromsø', 'Quito', 'Hanoi', 'Adelaide', 'Porto'];

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] * 100) / 100;
}

const summary = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) };
};

async function measure(n: number) {
  // productionEnv brings its own (unused) data folder, database, index and queue prefix.
  const backends = production ? productionEnv('bench-retrieval') : { DATA_DIR: mkdtempSync(join(tmpdir(), 'engram-bench-')) };
  const dataDir = backends.DATA_DIR;
  const config = loadConfig({ ...backends, PORT: '0', HOST: '127.0.0.1', CACHE_DIR, LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '1000000' });
  const server = await startServer(config, { logger: createLogger('silent') });
  try {
    const { store, vectors, pipeline } = server.services;
    const created = await createKey(store, { workspace: 'bench', plan: 'scale' });
    const ws = (await store.workspaces.getBySlug('bench'))!.id;
    const users = Math.max(1, Math.ceil(n / PER_USER));

    const loadStarted = performance.now();
    const now = new Date().toISOString();
    for (let offset = 0; offset < n; offset += 1_000) {
      const chunk: MemoryRecord[] = [];
      for (let i = offset; i < Math.min(n, offset + 1_000); i++) {
        const t = templates[i % templates.length];
        chunk.push({
          id: derivedId('mem', 'bench', i),
          workspaceId: ws,
          userId: `user${i % users}`,
          agentId: null,
          runId: null,
          content: `${t.content} (${FILLERS[i % FILLERS.length]}, note ${i})`,
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
      const embedded = await pipeline.embedder.embed(chunk.map((m) => m.content));
      await store.memories.insertMany(chunk);
      await vectors.upsert(
        chunk.map((m, i) => ({ id: m.id, workspaceId: ws, agentId: null, userId: m.userId, runId: null, metadataTerms: metadataTerms(m.metadata), vector: embedded[i], text: m.content })),
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
        await store.facts.insert(fact);
      }
    }
    const loadMs = performance.now() - loadStarted;

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
    return { memories: n, users, loadSeconds: Math.round(loadMs / 10) / 100, results: [await run('workspace'), await run('user')] };
  } finally {
    await server.close();
    if (production) await dropProductionData(backends);
    rmSync(dataDir, { recursive: true, force: true });
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
