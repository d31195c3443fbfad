import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerProcesses } from '../support/processes.js';
import { testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

/**
 * EXTRACTOR=model end to end over HTTP: the shipped model loads inside the embedded pipeline thread and
 * inside a BullMQ worker process, and a batch's messages come out as their own facts.
 */
const liveFacts = async (t: TestServer, user: string) =>
  ((await t.api().get(`/v1/facts?user_id=${user}&limit=100`)).body.facts as { predicate: string; object: string; negated?: boolean }[]).map((f) => `${f.predicate} ${f.object}`);

describe('the trained extractor in the write pipeline', () => {
  let embedded: TestServer;
  beforeAll(async () => {
    embedded = await startTestServer({ EXTRACTOR: 'model' });
  });
  afterAll(() => embedded?.close());

  it('embedded: a write and a batch give each message its own facts', async () => {
    await embedded.api().post('/v1/memories', { content: 'I live in Berlin and work at Siemens.', user_id: 'ana' });
    const memories = ["I'm allergic to penicillin.", 'My sister Lena lives in Vienna.', 'what time is it in Tokyo?'].map((content, i) => ({ content, user_id: `b${i}` }));
    expect((await embedded.api().post('/v1/batch', { memories })).status).toBeLessThan(300);
    await embedded.settle();
    expect(await liveFacts(embedded, 'ana')).toEqual(expect.arrayContaining(['lives_in Berlin', 'works_at Siemens']));
    expect(await liveFacts(embedded, 'b0')).toEqual(['allergic_to penicillin']);
    expect(await liveFacts(embedded, 'b1')).toEqual(expect.arrayContaining(['has_sister Lena']));
    expect(await liveFacts(embedded, 'b2')).toEqual([]);
  }, 60_000);

  it('BullMQ: a worker process extracts with the model', async () => {
    const api = await startTestServer({ EXTRACTOR: 'model', REDIS_URL: testRedisUrl(), QUEUE_PREFIX: `mx${process.pid}` }, { runWorkers: false });
    const workers = new WorkerProcesses(() => api.env);
    try {
      await workers.start();
      await api.api().post('/v1/memories', { content: 'We moved to Lisbon last year and I drive a Tesla.', user_id: 'carla' });
      const facts = await waitFor(async () => {
        const found = await liveFacts(api, 'carla');
        return found.length >= 2 ? found : undefined;
      }, 30_000);
      expect(facts).toEqual(expect.arrayContaining(['lives_in Lisbon']));
    } finally {
      await workers.stopAll();
      await api.close();
    }
  }, 60_000);
});
