import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerProcesses } from '../support/processes.js';
import { testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { waitFor } from '../support/wait.js';

/**
 * JUDGE=model end to end over HTTP: the shipped change classifier ends what a message ends without stating it as
 * a fact the rules can place, and leaves standing what a message only talks about. The same writes under
 * JUDGE=rules keep the ended fact live, which is what the classifier is for.
 */
interface ApiFact {
  predicate: string;
  object: string;
  valid_from: string;
  invalid_at: string | null;
}
const factsOf = async (t: TestServer, user: string, history = false) =>
  (await t.api().get(`/v1/facts?user_id=${user}&limit=100${history ? '&include_invalidated=true' : ''}`)).body.facts as ApiFact[];
const live = async (t: TestServer, user: string) => (await factsOf(t, user)).map((f) => `${f.predicate} ${f.object}`).sort();

const SAID = '2024-02-01T09:00:00Z';
const LATER = '2024-05-20T18:30:00Z';

/** Two messages of one user, the second a few months after the first, each committed before the next is sent. */
async function tell(t: TestServer, user: string, first: string, second: string) {
  await t.api().post('/v1/memories', { content: first, user_id: user, timestamp: SAID });
  await t.settle();
  await t.api().post('/v1/memories', { content: second, user_id: user, timestamp: LATER });
  await t.settle();
}

describe('the change classifier in the write pipeline', () => {
  let model: TestServer;
  let rules: TestServer;
  beforeAll(async () => {
    [model, rules] = await Promise.all([startTestServer({ JUDGE: 'model' }), startTestServer({ JUDGE: 'rules' })]);
  });
  afterAll(async () => {
    await model?.close();
    await rules?.close();
  });

  const FIRST = 'I have accounts with Lloyds and Revolut.';
  const ENDS = "shut the lloyds account down last week, everything's on revolut now";

  it('ends a fact the message implies is over, at the message time, and keeps its history', async () => {
    await tell(model, 'nia', FIRST, ENDS);
    expect(await live(model, 'nia')).toEqual(['banks_with Revolut']);
    const lloyds = (await factsOf(model, 'nia', true)).find((f) => f.object === 'Lloyds');
    expect(lloyds?.invalid_at).toBe(new Date(LATER).toISOString());
  }, 60_000);

  it('the rules alone keep it live', async () => {
    await tell(rules, 'nia', FIRST, ENDS);
    expect(await live(rules, 'nia')).toEqual(['banks_with Lloyds', 'banks_with Revolut']);
  }, 60_000);

  it('leaves standing what a message only talks about or wonders about', async () => {
    const talk = ["Revolut's app is so much nicer than Lloyds tbh", 'thinking about closing the lloyds account at some point, not sure yet'];
    for (const [i, second] of talk.entries()) await tell(model, `kai${i}`, FIRST, second);
    for (const i of talk.keys()) expect(await live(model, `kai${i}`)).toEqual(['banks_with Lloyds', 'banks_with Revolut']);
  }, 90_000);

  it('runs in a BullMQ worker process the same way', async () => {
    const api = await startTestServer({ JUDGE: 'model', REDIS_URL: testRedisUrl(), QUEUE_PREFIX: `cj${process.pid}` }, { runWorkers: false });
    const workers = new WorkerProcesses(() => api.env);
    try {
      await workers.start();
      await api.api().post('/v1/batch', {
        memories: [
          { content: FIRST, user_id: 'ola', timestamp: SAID },
          { content: ENDS, user_id: 'ola', timestamp: LATER },
        ],
      });
      const facts = await waitFor(async () => {
        const found = await live(api, 'ola');
        return found.length === 1 ? found : undefined;
      }, 30_000);
      expect(facts).toEqual(['banks_with Revolut']);
    } finally {
      await workers.stopAll();
      await api.close();
    }
  }, 60_000);
});
