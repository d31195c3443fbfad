import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkerProcess, stopProcess, waitForOutput } from '../support/processes.js';
import { testRedisUrl } from '../support/redis.js';
import { SHARED_CACHE_DIR, startTestServer, type TestServer } from '../support/server.js';

/**
 * Production shape: an API process that only enqueues, and separate
 * `npm run worker` processes running the six stage queues on a real Redis.
 */
const prefix = `bq${process.pid}`;
let api: TestServer;
let env: Record<string, string>;
let workers: ReturnType<typeof startWorkerProcess>[] = [];

async function startWorker() {
  const w = startWorkerProcess(env);
  workers.push(w);
  await waitForOutput(w, 'engram worker started');
  return w;
}

beforeAll(async () => {
  const shared = { REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix, JOB_LOCK_MS: '1500' };
  api = await startTestServer(shared, { runWorkers: false });
  env = { ...shared, DATA_DIR: api.dataDir, CACHE_DIR: SHARED_CACHE_DIR };
});

afterAll(async () => {
  await Promise.all(workers.map((w) => stopProcess(w)));
  await api?.close();
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('BullMQ flows with separate worker processes', () => {
  it('a write returns at once and its facts appear within a second', async () => {
    await startWorker();
    const started = Date.now();
    const res = await api.api().post('/v1/memories', { content: 'I live in Copenhagen.', user_id: 'fast' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('processing');
    const facts = await waitFor(async () => {
      const body = (await api.api().get('/v1/facts?user_id=fast')).body;
      return body.total > 0 ? body.facts : undefined;
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(facts[0]).toMatchObject({ predicate: 'lives_in', object: 'Copenhagen' });
    expect((await api.api().get(`/v1/memories/${res.body.id}`)).body.status).toBe('ready');
  });

  it('killing a worker mid-batch loses nothing and duplicates nothing', async () => {
    const users = 10;
    const perUser = 12;
    const memories = Array.from({ length: users * perUser }, (_, i) => ({
      content: `I work at Company${String.fromCharCode(65 + Math.floor(i / users))}${i % users} now.`,
      user_id: `crash${i % users}`,
    }));
    const victim = workers.shift()!;
    await stopProcess(victim);
    const doomed = await startWorker();
    const batch = (await api.api().post('/v1/batch', { memories })).body;
    await waitFor(async () => ((await api.api().get(`/v1/batch/${batch.id}`)).body.imported >= 10 ? true : undefined));
    await stopProcess(doomed, 'SIGKILL');
    workers = workers.filter((w) => w !== doomed);
    await startWorker();

    const done = await waitFor(async () => {
      const body = (await api.api().get(`/v1/batch/${batch.id}`)).body;
      return body.status === 'completed' ? body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ received: 120, imported: 120, failed: 0, errors: [] });
    for (let u = 0; u < users; u++) {
      const live = (await api.api().get(`/v1/facts?user_id=crash${u}&predicate=works_at`)).body;
      expect(live.total).toBe(1);
      // arrival order defines the supersede chain: the last item per user wins
      expect(live.facts[0].object).toBe(`Company${String.fromCharCode(65 + perUser - 1)}${u}`);
      const all = (await api.api().get(`/v1/facts?user_id=crash${u}&predicate=works_at&include_invalidated=true&limit=200`)).body;
      expect(all.total).toBe(perUser);
      expect(new Set(all.facts.map((f: any) => f.object)).size).toBe(perUser);
    }
    expect((await api.api().get('/v1/events?status=processing')).body.processing).toBe(0);
  }, 90_000);

  it('two concurrent writes of a single-valued fact leave exactly one live fact', async () => {
    for (let round = 0; round < 5; round++) {
      const user = `race${round}`;
      await Promise.all([
        api.api().post('/v1/memories', { content: 'I live in Lyon.', user_id: user }),
        api.api().post('/v1/memories', { content: 'I live in Nantes.', user_id: user }),
      ]);
      await api.settle();
      const live = (await api.api().get(`/v1/facts?user_id=${user}&predicate=lives_in`)).body;
      expect(live.total).toBe(1);
    }
  });

  it('an update re-runs the flow and the newest content wins', async () => {
    const m = (await api.api().post('/v1/memories', { content: 'I live in Graz.', user_id: 'upd' })).body;
    await api.api().patch(`/v1/memories/${m.id}`, { content: 'I live in Linz.' });
    await api.api().patch(`/v1/memories/${m.id}`, { content: 'I live in Salzburg.' });
    await api.settle();
    const got = (await api.api().get(`/v1/memories/${m.id}`)).body;
    expect(got.status).toBe('ready');
    expect(got.facts.map((f: any) => f.object)).toEqual(['Salzburg']);
    const live = (await api.api().get('/v1/facts?user_id=upd&predicate=lives_in')).body;
    expect(live.facts.map((f: any) => f.object)).toEqual(['Salzburg']);
  });

  it('user erasure leaves none of the user’s content or ids in Redis, failed jobs included', async () => {
    for (const w of workers) await stopProcess(w);
    workers = [];
    const secret = 'Zanzibar-Quokka-7731';
    const queued = (await api.api().post('/v1/memories', { content: `I live in ${secret}.`, user_id: 'forget-redis' })).body;
    const redis = new Redis(testRedisUrl());
    try {
      const dump = async () => {
        const out: string[] = [];
        for (const key of await redis.keys(`${prefix}:*`)) {
          const type = await redis.type(key);
          out.push(key);
          if (type === 'string') out.push(String(await redis.get(key)));
          else if (type === 'hash') out.push(JSON.stringify(await redis.hgetall(key)));
          else if (type === 'list') out.push(JSON.stringify(await redis.lrange(key, 0, -1)));
          else if (type === 'set') out.push(JSON.stringify(await redis.smembers(key)));
          else if (type === 'zset') out.push(JSON.stringify(await redis.zrange(key, 0, -1)));
          else if (type === 'stream') out.push(JSON.stringify(await redis.xrange(key, '-', '+')));
        }
        return out.join('\n');
      };
      expect(await dump()).toContain(queued.id);
      const erased = await api.api().delete('/v1/users/forget-redis/memories');
      expect(erased.body.memories_forgotten).toBe(1);
      const after = await dump();
      expect(after).not.toContain(queued.id);
      expect(after).not.toContain(secret);
    } finally {
      redis.disconnect();
    }
  });
});
