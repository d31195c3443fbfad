import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerProcesses } from '../support/processes.js';
import { redisDump, testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

/**
 * Production shape: an API process that only enqueues, and separate
 * `npm run worker` processes running the six stage queues on a real Redis.
 */
const prefix = `bq${process.pid}`;
let api: TestServer;
const workers = new WorkerProcesses(() => api.env);

beforeAll(async () => {
  // Chunks of 5: a user's 12 batch items run as three flows, so a killed worker leaves some chunks half committed.
  api = await startTestServer({ REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix, JOB_LOCK_MS: '1500', WRITE_CHUNK_SIZE: '5' }, { runWorkers: false });
});

afterAll(async () => {
  await workers.stopAll();
  await api?.close();
});

describe('BullMQ flows with separate worker processes', () => {
  it('a write returns at once and its facts appear within a second', async () => {
    await workers.start();
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
    // A worker process's commit shares its connection with other jobs, so it is not one transaction:
    // the facts can be visible a moment before the memory is marked ready.
    const status = await waitFor(async () => {
      const body = (await api.api().get(`/v1/memories/${res.body.id}`)).body;
      return body.status === 'processing' ? undefined : body.status;
    });
    expect(status).toBe('ready');
  });

  it('killing a worker mid-batch loses nothing and duplicates nothing', async () => {
    const users = 10;
    const perUser = 12;
    const memories = Array.from({ length: users * perUser }, (_, i) => ({
      content: `I work at Company${String.fromCharCode(65 + Math.floor(i / users))}${i % users} now.`,
      user_id: `crash${i % users}`,
    }));
    await workers.stop();
    const doomed = await workers.start();
    const batch = (await api.api().post('/v1/batch', { memories })).body;
    await waitFor(async () => ((await api.api().get(`/v1/batch/${batch.id}`)).body.imported >= 10 ? true : undefined));
    await workers.stop(doomed, 'SIGKILL');
    await workers.start();

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
    await workers.stopAll();
    const secret = 'Zanzibar-Quokka-7731';
    const queued = (await api.api().post('/v1/memories', { content: `I live in ${secret}.`, user_id: 'forget-redis' })).body;
    const redis = new Redis(testRedisUrl());
    try {
      const dump = () => redisDump(redis, `${prefix}:*`);
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
