/**
 * Bulk import while an agent reads: the LoCoMo development conversations (read in place from
 * ../shared/data/locomo, never copied) go in as 500-turn POST /v1/batch requests sent all at
 * once, while one reader issues search and context requests one at a time until the import has
 * been processed. With `--adds`, single POST /v1/memories writes with a fixed number in flight.
 *
 *   npx tsx bench/import.ts                              embedded default
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/import.ts   API + one `npm run worker` on Redis
 *   npx tsx bench/import.ts --adds 3000 --in-flight 16   single adds instead of batches
 *   npx tsx bench/import.ts --no-reads                   no reader: server CPU is the write path's alone
 *   npx tsx bench/import.ts --connection-per-batch       each batch on its own connection, as separate importers send them
 *
 * The server runs as separate processes, as `npm start` runs them (compiled dist/, rebuilt when stale). Prints one
 * JSON object: turns/s, acknowledgement and read latency percentiles, machine load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { createKey } from '../core/commands/keys.js';
import { SqliteStore } from '../storage/sqlite/store.js';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    data: { type: 'string', default: join(ROOT, '..', 'shared', 'data', 'locomo', 'locomo-dev.json') },
    turns: { type: 'string', default: '3000' },
    'batch-size': { type: 'string', default: '500' },
    adds: { type: 'string' },
    'in-flight': { type: 'string', default: '16' },
    threads: { type: 'string' },
    // Leaves the reader out: the server's CPU time is then the write path's alone.
    'no-reads': { type: 'boolean', default: false },
    // Sends each batch on a connection of its own, as separate importers would; by default the batches share
    // fetch's connection pool, which opens connections as it needs them and so sends some batches one after another.
    'connection-per-batch': { type: 'boolean', default: false },
  },
});

interface Turn {
  content: string;
  user_id: string;
  timestamp?: string;
}

/** LoCoMo turns in conversation order; one user scope per conversation, repeated (as new users) up to `count`. */
function loadTurns(path: string, count: number): Turn[] {
  const conversations = JSON.parse(readFileSync(path, 'utf8')) as { sample_id: string; conversation: Record<string, unknown> }[];
  const base: Turn[] = [];
  for (const c of conversations) {
    for (let s = 1; Array.isArray(c.conversation[`session_${s}`]); s++) {
      const when = Date.parse(String(c.conversation[`session_${s}_date_time`] ?? '').replace(/^(\d+:\d+ [ap]m) on /, '$1 '));
      for (const turn of c.conversation[`session_${s}`] as { speaker: string; text: string }[]) {
        base.push({
          content: `${turn.speaker}: ${turn.text}`,
          user_id: c.sample_id,
          ...(Number.isNaN(when) ? {} : { timestamp: new Date(when).toISOString() }),
        });
      }
    }
  }
  const out: Turn[] = [];
  for (let round = 0; out.length < count; round++) {
    for (const t of base) {
      if (out.length >= count) break;
      out.push(round === 0 ? t : { ...t, user_id: `${t.user_id}-r${round}` });
    }
  }
  return out;
}

/** CPU seconds (user + system) the Redis server has used so far, from INFO (its own count, not the children's). */
async function redisCpuSeconds(url: string): Promise<number> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? Number.NaN);
    return field('used_cpu_user') + field('used_cpu_sys');
  } finally {
    redis.disconnect();
  }
}

/** CPU seconds (user + system, all threads) a child process has used so far; Linux only. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0);
const round = (n: number) => Math.round(n * 10) / 10;
function summary(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  return { n: s.length, p50: round(percentile(s, 50)), p95: round(percentile(s, 95)), p99: round(percentile(s, 99)), max: round(s[s.length - 1] ?? 0) };
}

/** POST on a new connection (no keep-alive pool); resolves with the parsed answer. */
function postOnOwnConnection(url: string, headers: Record<string, string>, body: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode && res.statusCode < 300 ? resolve(JSON.parse(text)) : reject(new Error(`POST ${url}: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function startProcess(entry: string, env: Record<string, string>): ChildProcess & { output: () => string } {
  // As `npm start` runs it: the compiled output, rebuilt first when a source is newer.
  const extra = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const argv = [...extra, join(ROOT, 'scripts', 'start.mjs'), entry.replace(/\.ts$/, '')];
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  return Object.assign(child, { output: () => output });
}

async function waitFor(check: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function main() {
  const redisUrl = process.env.REDIS_URL;
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-bench-import-'));
  const store = SqliteStore.open(dataDir);
  const { key } = await createKey(store, { workspace: 'bench', plan: 'scale' });
  await store.close();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    CACHE_DIR: process.env.CACHE_DIR ?? join(tmpdir(), 'engram-test-cache'),
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_SECOND: '100000',
    PORT: String(20_000 + (process.pid % 20_000)),
    HOST: '127.0.0.1',
    ...(args.threads ? { PIPELINE_THREADS: args.threads } : {}),
    ...(redisUrl ? { REDIS_URL: redisUrl, QUEUE_PREFIX: `benchimp${process.pid}`, RUN_WORKERS: 'false' } : {}),
  };
  const children: ChildProcess[] = [];
  try {
    const api = startProcess('api/main.ts', env);
    children.push(api);
    const url = `http://127.0.0.1:${env.PORT}`;
    for (let up = false; !up; ) {
      if (api.exitCode !== null) throw new Error(`API did not start:\n${api.output()}`);
      up = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 50));
    }
    if (redisUrl) {
      const worker = startProcess('workers/main.ts', { ...env, LOG_LEVEL: 'info' });
      children.push(worker);
      await waitFor(() => worker.output().includes('engram worker started') || worker.exitCode !== null, 'the worker');
    }
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json()) as any;
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    // Warm-up: one write through the whole pipeline, so thread and worker start-up is not measured.
    const warm = await call('POST', '/v1/memories', { content: 'I live in Lisbon.', user_id: 'warmup' });
    for (let status = 'processing'; status === 'processing'; ) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await call('GET', `/v1/memories/${warm.id}`)).status;
    }

    const adds = args.adds ? Number(args.adds) : 0;
    const turns = loadTurns(args.data!, adds || Number(args.turns));
    const users = [...new Set(turns.map((t) => t.user_id))];
    const loadBefore = loadavg();
    const cpuBefore = children.map((c) => cpuSeconds(c.pid));
    const redisBefore = redisUrl ? await redisCpuSeconds(redisUrl) : 0;
    const acks: number[] = [];
    const reads: number[] = [];
    let importing = true;

    // The agent: one read at a time, alternating search and context, until the import is processed.
    const queries = ['what does she like to do', 'where did they go last summer', 'family and kids', 'career plans', 'painting and art'];
    const reader = (async () => {
      for (let i = 0; importing && !args['no-reads']; i++) {
        const q = encodeURIComponent(queries[i % queries.length]);
        const user = encodeURIComponent(users[i % users.length]);
        const started = performance.now();
        if (i % 2 === 0) await call('POST', '/v1/memories/search', { query: queries[i % queries.length], user_id: users[i % users.length], limit: 10 });
        else await call('GET', `/v1/context?query=${q}&user_id=${user}`);
        reads.push(performance.now() - started);
      }
    })();

    const started = performance.now();
    if (adds) {
      let next = 0;
      const inFlight = Number(args['in-flight']);
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (next < turns.length) {
            const turn = turns[next++];
            const t0 = performance.now();
            await call('POST', '/v1/memories', turn);
            acks.push(performance.now() - t0);
          }
        }),
      );
    } else {
      const size = Number(args['batch-size']);
      const chunks = Array.from({ length: Math.ceil(turns.length / size) }, (_, i) => turns.slice(i * size, (i + 1) * size));
      const batches = await Promise.all(
        chunks.map(async (memories) => {
          const t0 = performance.now();
          const batch = args['connection-per-batch']
            ? await postOnOwnConnection(`${url}/v1/batch`, headers, JSON.stringify({ memories }))
            : await call('POST', '/v1/batch', { memories });
          acks.push(performance.now() - t0);
          return batch.id as string;
        }),
      );
      for (const id of batches) {
        for (;;) {
          const b = await call('GET', `/v1/batch/${id}`);
          if (b.status === 'completed') {
            if (b.failed) throw new Error(`batch ${id}: ${b.failed} items failed`);
            break;
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
    // Single adds: done when nothing is processing any more.
    for (;;) {
      const events = await call('GET', '/v1/events?status=processing&limit=1');
      if (events.processing === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuByProcess = children.map((c, i) => cpuSeconds(c.pid) - cpuBefore[i]);
    const redisCpu = redisUrl ? (await redisCpuSeconds(redisUrl)) - redisBefore : 0;
    const serverCpu = cpuByProcess.reduce((sum, s) => sum + s, 0) + redisCpu;
    importing = false;
    await reader;

    console.log(
      JSON.stringify({
        mode: redisUrl ? 'bullmq (API + 1 worker process)' : 'embedded',
        machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version, loadavg_before: loadBefore.map(round), loadavg_after: loadavg().map(round) },
        workload: adds ? { single_adds: turns.length, in_flight: Number(args['in-flight']), users: users.length } : { turns: turns.length, batch_size: Number(args['batch-size']), requests: acks.length, users: users.length, connection_per_batch: args['connection-per-batch'] },
        seconds: round(seconds),
        turns_per_s: Math.round(turns.length / seconds),
        extractor: process.env.EXTRACTOR ?? 'model',
        judge: process.env.JUDGE ?? 'rules',
        // Load-independent: server CPU spent per turn (API, workers and Redis, reads included), and what that allows per core.
        server_cpu_s: round(serverCpu),
        // Where it went: the API process (embedded: the whole server), and in BullMQ mode the worker process and Redis.
        server_cpu_ms_per_turn: {
          api: round((cpuByProcess[0] * 1000) / turns.length),
          ...(redisUrl ? { worker: round((cpuByProcess[1] * 1000) / turns.length), redis: round((redisCpu * 1000) / turns.length) } : {}),
        },
        turns_per_server_cpu_s: Math.round(turns.length / serverCpu),
        ack_ms: summary(acks),
        reads_during_import_ms: summary(reads),
      }),
    );
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
