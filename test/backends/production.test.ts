import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageLimits } from '../../core/limits.js';
import { TwoByTwoDeployment } from '../support/deployment.js';
import { redisDump } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

/**
 * The production shape over HTTP, against real servers: two API processes (RUN_WORKERS=false) and two
 * `npm run worker` processes on Redis (BullMQ, limits), the MongoDB wire protocol (FerretDB) and Elasticsearch.
 */
const RATE = 10;
const deployment = new TwoByTwoDeployment('prod', { RATE_LIMIT_PER_SECOND: String(RATE), JOB_LOCK_MS: '3000', JOB_ATTEMPTS: '12' });
const { env, workers } = deployment;
const workspace = deployment.workspace.bind(deployment);
const settled = deployment.settled.bind(deployment);
let mongo: MongoClient;

async function es(path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${env.ELASTICSEARCH_URL}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.json();
}

/** Every document of every collection of the test database, as text. */
async function mongoDump(): Promise<{ collection: string; text: string }[]> {
  const db = mongo.db(env.MONGODB_DB);
  const out: { collection: string; text: string }[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find().toArray()) out.push({ collection: name, text: JSON.stringify(doc) });
  }
  return out;
}

/** Everything in Redis (the whole server: limits and quotas live outside the queue prefix). */
async function redisText(): Promise<string> {
  const redis = new Redis(env.REDIS_URL);
  try {
    return await redisDump(redis);
  } finally {
    redis.disconnect();
  }
}

beforeAll(async () => {
  mongo = await new MongoClient(env.MONGODB_URL).connect();
  await deployment.start();
});

afterAll(async () => {
  await mongo?.close();
  await deployment.close();
});

describe('production mode: two APIs, two workers, Redis + MongoDB protocol + Elasticsearch', () => {
  it('a write through one API is read, searched and given context through the other', async () => {
    const { a, b } = workspace('e2e-rw');
    const written = await a.post('/v1/memories', { content: 'I live in Reykjavik and work at Marel.', user_id: 'rw' });
    expect(written.status).toBe(200);
    expect(written.body.status).toBe('processing');
    const ready = await waitFor(async () => {
      const got = await b.get(`/v1/memories/${written.body.id}`);
      return got.body.status === 'ready' ? got.body : undefined;
    }, 60_000, 250);
    expect(ready.content).toBe('I live in Reykjavik and work at Marel.');
    const facts = (await b.get('/v1/facts?user_id=rw')).body.facts.map((f: any) => `${f.predicate}:${f.object}`);
    expect(facts).toEqual(expect.arrayContaining(['lives_in:Reykjavik', 'works_at:Marel']));
    const search = await b.post('/v1/memories/search', { query: 'where does the user live', user_id: 'rw' });
    expect(search.status).toBe(200);
    expect(search.body.results[0].id).toBe(written.body.id);
    const context = await b.get('/v1/context?query=home%20city&user_id=rw');
    expect(context.status).toBe(200);
    expect(context.body.context).toContain('Reykjavik');
  });

  it('rate limits, quotas and agent caps are shared by both APIs', async () => {
    // Rate: one key, a burst split over both processes; the per-key window is counted once, in Redis.
    const { a, b } = workspace('e2e-rate');
    const started = Date.now();
    const burst = await Promise.all(Array.from({ length: 2 * RATE }, (_, i) => (i % 2 ? a : b).get('/v1/memories?limit=1')));
    const elapsed = Date.now() - started;
    const allowed = burst.filter((r) => r.status === 200).length;
    const limited = burst.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0].body.code).toBe('rate_limit_exceeded');
    expect(limited[0].headers.get('retry-after')).not.toBeNull();
    // Counted per process, each API would let RATE through in the first second.
    if (elapsed < 900) expect(allowed).toBe(RATE);
    else expect(allowed).toBeLessThan(2 * RATE);

    // Monthly write quota (hobby: 1,000 + 10%): bring the workspace near its end with the production limiter on
    // the same Redis, then spend the rest alternately through both APIs.
    const hobby = workspace('e2e-quota', 'hobby');
    const ws = await mongo.db(env.MONGODB_DB).collection('workspaces').findOne({ slug: 'e2e-quota' });
    expect(ws).not.toBeNull();
    const redis = new Redis(env.REDIS_URL);
    try {
        await new UsageLimits({ kind: 'redis', client: redis }, RATE).consume('write', String(ws!._id), 'hobby', 1_095);
    } finally {
      redis.disconnect();
    }
    const items = (n: number) => ({ memories: Array.from({ length: n }, (_, i) => ({ content: `quota item ${i}`, user_id: 'quota' })) });
    expect((await hobby.a.post('/v1/batch', items(3))).status).toBe(202); // 1,098
    const refused = await hobby.b.post('/v1/batch', items(3)); // would be 1,101
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('quota_exceeded');
    expect((await hobby.b.post('/v1/batch', items(2))).status).toBe(202); // 1,100
    expect((await hobby.a.post('/v1/memories', { content: 'one too many', user_id: 'quota' })).body.code).toBe('quota_exceeded');

    // Agent cap (hobby: 2 agents), kept in MongoDB.
    const capped = workspace('e2e-agents', 'hobby');
    expect((await capped.a.post('/v1/memories', { content: 'a', agent_id: 'one' })).status).toBe(200);
    expect((await capped.b.post('/v1/memories', { content: 'b', agent_id: 'two' })).status).toBe(200);
    const third = await capped.a.post('/v1/memories', { content: 'c', agent_id: 'three' });
    expect(third.status).toBe(403);
    expect(third.body.code).toBe('agent_cap_exceeded');
  });

  it('a 200-item batch survives a worker killed mid-flight: nothing lost, nothing duplicated', async () => {
    const { a, b } = workspace('e2e-batch');
    const users = 10;
    const perUser = 20;
    const memories = Array.from({ length: users * perUser }, (_, i) => ({
      content: `I work at Company${Math.floor(i / users)}x${i % users} now.`,
      user_id: `crash${i % users}`,
    }));
    const accepted = await a.post('/v1/batch', { memories });
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.id;
    // Mid-flight: some items committed, most still somewhere in the six stages.
    const importedAtKill = await waitFor(async () => {
      const { imported } = (await b.get(`/v1/batch/${batchId}`)).body;
      return imported >= 5 ? (imported as number) : undefined;
    }, 600_000, 500);
    await workers.stop(workers.running[0], 'SIGKILL');
    expect(importedAtKill).toBeLessThan(memories.length / 2);
    await workers.start();

    const done = await waitFor(async () => {
      const body = (await b.get(`/v1/batch/${batchId}`)).body;
      return body.status === 'completed' ? body : undefined;
    }, 1_500_000, 1_000);
    expect(done).toMatchObject({ received: 200, imported: 200, failed: 0, errors: [] });

    const ids = new Set<string>();
    for (let u = 0; u < users; u++) {
      const listed = (await b.get(`/v1/memories?user_id=crash${u}&limit=200`)).body;
      expect(listed.total).toBe(perUser);
      for (const m of listed.memories) {
        expect(m.status).toBe('ready');
        ids.add(m.id);
      }
      const live = (await a.get(`/v1/facts?user_id=crash${u}&predicate=works_at`)).body;
      expect(live.total).toBe(1);
      expect(live.facts[0].object).toBe(`Company${perUser - 1}x${u}`);
      const all = (await a.get(`/v1/facts?user_id=crash${u}&predicate=works_at&include_invalidated=true&limit=200`)).body;
      expect(all.total).toBe(perUser);
      expect(new Set(all.facts.map((f: any) => f.object)).size).toBe(perUser);
    }
    expect(ids.size).toBe(200);
    // One vector per memory in Elasticsearch, no more.
    await es(`/${env.ELASTICSEARCH_INDEX}/_refresh`, {});
    const counted = await es(`/${env.ELASTICSEARCH_INDEX}/_count`, { query: { terms: { memory_id: [...ids] } } });
    expect(counted.count).toBe(200);
  }, 2_400_000);

  it('user erasure leaves nothing of the user in MongoDB, Elasticsearch or Redis', async () => {
    const { a, b } = workspace('e2e-erase');
    // Unique per run: the servers (and their Redis) outlive one run of the suite.
    const secret = `Quokka-${randomUUID().slice(0, 8)}`;
    const user = `erase-me-${randomUUID().slice(0, 8)}`;
    const kept = await a.post('/v1/memories', { content: 'I live in Tallinn.', user_id: 'stays' });
    const mine = [];
    for (const content of [`I live in ${secret}.`, `My sister ${secret}son works at Nokia.`, 'I love sailing.']) {
      mine.push((await a.post('/v1/memories', { content, user_id: user })).body.id as string);
    }
    await settled(b);
    // Something queued but not yet processed: the workers are stopped for this write.
    await workers.stopAll();
    try {
      mine.push((await b.post('/v1/memories', { content: `Queued: ${secret} again.`, user_id: user })).body.id);

      const before = await mongoDump();
      expect(before.some((d) => d.text.includes(secret))).toBe(true);
      expect(await redisText()).toContain(mine[mine.length - 1]);

      const erased = await b.delete(`/v1/users/${user}/memories`);
      expect(erased.status).toBe(200);
      expect(erased.body.memories_forgotten).toBe(4);

      for (const { collection, text } of await mongoDump()) {
        expect(text, collection).not.toContain(secret);
        for (const id of mine) expect(text, collection).not.toContain(id);
        // The audit row names the user (and counts) by design, nothing else does.
        if (collection !== 'audit') expect(text, collection).not.toContain(user);
      }
      await es(`/${env.ELASTICSEARCH_INDEX}/_refresh`, {});
      expect((await es(`/${env.ELASTICSEARCH_INDEX}/_count`, { query: { term: { user_id: user } } })).count).toBe(0);
      expect((await es(`/${env.ELASTICSEARCH_INDEX}/_count`, { query: { terms: { memory_id: mine } } })).count).toBe(0);
      const redisAfter = await redisText();
      expect(redisAfter).not.toContain(secret);
      for (const id of mine) expect(redisAfter).not.toContain(id);

    } finally {
      await Promise.all([workers.start(), workers.start()]);
    }
    expect((await a.get(`/v1/memories/${kept.body.id}`)).status).toBe(200);
    expect((await a.get(`/v1/memories/${mine[0]}`)).status).toBe(404);
  }, 300_000);
});
