import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { STAGES } from '../../workers/bullmq/flows.js';
import { redisDump, testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

/**
 * A batch's writes of one user in BullMQ mode run as chunks (workers/bullmq/chunks.ts): each stage job handles several
 * writes, and each write still ends on its own. The workers run in the test's process, so a test can make one write's
 * stage fail; the queues are real BullMQ queues on a real Redis.
 */
let t: TestServer | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function start(env: Record<string, string> = {}, options: { runWorkers?: boolean } = {}) {
  t = await startTestServer({ REDIS_URL: testRedisUrl(), JOB_ATTEMPTS: '2', ...env }, { mode: 'embedded', ...options });
  return t;
}

async function completed(server: TestServer, id: string) {
  return waitFor(async () => {
    const body = (await server.api().get(`/v1/batch/${id}`)).body;
    return body.status === 'completed' ? body : undefined;
  }, 60_000);
}

/** Stage jobs per queue that ever held a chunk: the queue's `added` events name their job ids. */
async function addedJobIds(server: TestServer): Promise<string[]> {
  const redis = new Redis(testRedisUrl());
  try {
    const ids: string[] = [];
    for (const stage of STAGES) {
      for (const [, fields] of await redis.xrange(`${server.env.QUEUE_PREFIX}:${stage}:events`, '-', '+')) {
        if (fields[fields.indexOf('event') + 1] === 'added') ids.push(fields[fields.indexOf('jobId') + 1]);
      }
    }
    return ids;
  } finally {
    redis.disconnect();
  }
}

describe('BullMQ chunks', () => {
  it('a batch of one user runs as a few flows, its writes committed in arrival order across chunks', async () => {
    const server = await start({ WRITE_CHUNK_SIZE: '4' });
    const memories = Array.from({ length: 10 }, (_, i) => ({ content: `I work at Foundry${i} now.`, user_id: 'chunked' }));
    const batch = (await server.api().post('/v1/batch', { memories })).body;
    expect(await completed(server, batch.id)).toMatchObject({ received: 10, imported: 10, failed: 0 });
    // 10 writes in chunks of at most 4: three flows of six stage jobs, not ten.
    expect((await addedJobIds(server)).filter((id) => id.startsWith('chunk-'))).toHaveLength(3 * STAGES.length);
    const live = (await server.api().get('/v1/facts?user_id=chunked&predicate=works_at')).body;
    expect(live.facts.map((f: any) => f.object)).toEqual(['Foundry9']);
    const all = (await server.api().get('/v1/facts?user_id=chunked&predicate=works_at&include_invalidated=true&limit=50')).body;
    expect(all.total).toBe(10);
  });

  it('a write whose stage keeps failing ends in error alone; the rest of its chunk is imported', async () => {
    const server = await start();
    const extractor = server.services.pipeline.factExtractor;
    const original = extractor.extractFacts.bind(extractor);
    extractor.extractFacts = async (input) => {
      if (input.content.includes('POISON')) throw new Error('cannot extract this');
      return original(input);
    };
    const memories = ['I live in Riga.', 'POISON pill', 'I work at Rimi.', 'I like sauna.'].map((content) => ({ content, user_id: 'poisoned' }));
    const batch = (await server.api().post('/v1/batch', { memories })).body;
    const done = await completed(server, batch.id);
    expect(done).toMatchObject({ received: 4, imported: 3, failed: 1 });
    expect(done.errors).toEqual([{ index: 1, memory_id: expect.stringMatching(/^mem_/), message: 'cannot extract this' }]);
    expect((await server.api().get(`/v1/memories/${done.errors[0].memory_id}`)).body.status).toBe('error');
    const facts = (await server.api().get('/v1/facts?user_id=poisoned')).body.facts.map((f: any) => f.object).sort();
    expect(facts).toEqual(['Riga', 'Rimi', 'sauna']);
  });

  it('a write that fails once is retried with its chunk, and every write of the chunk lands exactly once', async () => {
    const server = await start({ JOB_ATTEMPTS: '3' });
    const extractor = server.services.pipeline.factExtractor;
    const original = extractor.extractFacts.bind(extractor);
    let failures = 1;
    extractor.extractFacts = async (input) => {
      if (input.content.includes('Oslo') && failures-- > 0) throw new Error('transient extractor failure');
      return original(input);
    };
    const memories = ['I live in Bergen.', 'I work at Equinor.', 'I moved to Oslo.'].map((content) => ({ content, user_id: 'flaky' }));
    const batch = (await server.api().post('/v1/batch', { memories })).body;
    expect(await completed(server, batch.id)).toMatchObject({ received: 3, imported: 3, failed: 0, errors: [] });
    expect(failures).toBeLessThan(0);
    const all = (await server.api().get('/v1/facts?user_id=flaky&include_invalidated=true')).body.facts;
    expect(all.map((f: any) => `${f.predicate} ${f.object}`).sort()).toEqual(['lives_in Bergen', 'lives_in Oslo', 'works_at Equinor']);
    expect((await server.api().get('/v1/facts?user_id=flaky&predicate=lives_in')).body.facts.map((f: any) => f.object)).toEqual(['Oslo']);
  });

  it('a chunk whose commit fails for good ends each of its writes in error, and its batch completes', async () => {
    const server = await start({ JOB_ATTEMPTS: '1' });
    const memories = server.services.store.memories;
    const original = memories.pendingBefore.bind(memories);
    memories.pendingBefore = async (scope, seq, since) => {
      if (scope.userId === 'doomed') throw new Error('the turn cannot be checked');
      return original(scope, seq, since);
    };
    const batch = (await server.api().post('/v1/batch', { memories: ['I live in Turku.', 'I work at Kone.', 'I like rye.'].map((content) => ({ content, user_id: 'doomed' })) })).body;
    const done = await completed(server, batch.id);
    expect(done).toMatchObject({ received: 3, imported: 0, failed: 3 });
    expect(done.errors.map((e: any) => e.message)).toEqual(Array(3).fill('the turn cannot be checked'));
    const listed = (await server.api().get('/v1/memories?user_id=doomed')).body.memories;
    expect(listed.map((m: any) => m.status)).toEqual(['error', 'error', 'error']);
  });

  it('erasing a user whose chunk is still queued leaves none of its content or ids in Redis', async () => {
    const server = await start({}, { runWorkers: false });
    const secret = 'Quokka-Zanzibar-4417';
    const memories = [`I live in ${secret}.`, 'I work at Hollowtree.', 'My sister is Ilse.'].map((content) => ({ content, user_id: 'erase-chunk' }));
    const batch = (await server.api().post('/v1/batch', { memories })).body;
    const ids: string[] = (await server.api().get('/v1/memories?user_id=erase-chunk')).body.memories.map((m: any) => m.id);
    expect(ids).toHaveLength(3);
    const redis = new Redis(testRedisUrl());
    try {
      const dump = () => redisDump(redis, `${server.env.QUEUE_PREFIX}:*`);
      const before = await dump();
      for (const id of ids) expect(before).toContain(id);
      expect((await server.api().delete('/v1/users/erase-chunk/memories')).body.memories_forgotten).toBe(3);
      const after = await dump();
      for (const id of ids) expect(after).not.toContain(id);
      expect(after).not.toContain(secret);
    } finally {
      redis.disconnect();
    }
    expect(await completed(server, batch.id)).toMatchObject({ received: 3, imported: 0, failed: 3 });
  });
});
