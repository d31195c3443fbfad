import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarios, type Scenario } from '../eval/extraction/scenarios.js';
import { SIMULATION_START } from '../eval/extraction/simulate.js';
import { testRedisUrl } from '../support/redis.js';
import { ApiClient, startTestServer, type TestServer } from '../support/server.js';

/**
 * The labelled contradiction scenarios (moves, job changes, preference
 * reversals, restatements, back-dated facts, negations, several users),
 * replayed end to end over HTTP in both modes and as chronological batches.
 */
const stepTime = (scenario: Scenario, i: number) => scenario.steps[i].timestamp ?? new Date(SIMULATION_START + i * 60_000).toISOString();

async function checkOutcome(api: ApiClient, scenario: Scenario) {
  const facts = async (user: string, qs: string) => (await api.get(`/v1/facts?user_id=${encodeURIComponent(user)}&limit=200&${qs}`)).body.facts;
  const matches = (f: any, e: { subject: string; predicate: string; object?: string }) =>
    f.subject.toLowerCase() === e.subject.toLowerCase() &&
    f.predicate === e.predicate &&
    (e.object === undefined || f.object.toLowerCase() === e.object.toLowerCase());
  for (const e of scenario.expectLive) {
    const live = await facts(e.user_id, '');
    expect(live.filter((f: any) => matches(f, e)), `${scenario.name}: live ${e.subject} ${e.predicate} ${e.object}`).toHaveLength(1);
  }
  for (const e of scenario.expectInvalidated ?? []) {
    const all = await facts(e.user_id, 'include_invalidated=true');
    const found = all.filter((f: any) => matches(f, e));
    expect(found.length, `${scenario.name}: history ${e.subject} ${e.predicate} ${e.object}`).toBeGreaterThan(0);
    expect(found.every((f: any) => f.invalid_at !== null), `${scenario.name}: ${e.object} closed`).toBe(true);
  }
  for (const e of scenario.expectNoLive ?? []) {
    const live = await facts(e.user_id, '');
    expect(live.filter((f: any) => matches(f, e)), `${scenario.name}: no live ${e.subject} ${e.predicate}`).toEqual([]);
  }
}

const modes: [string, () => Record<string, string>][] = [
  ['in-process runner', () => ({})],
  ['BullMQ flows', () => ({ REDIS_URL: testRedisUrl() })],
];

describe.each(modes)('contradiction scenarios end to end (%s)', (_mode, env) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(env());
  });
  afterAll(async () => t?.close());

  it(`replays all ${scenarios.length} scenarios as individual writes`, async () => {
    const runs = scenarios.map(async (scenario, n) => {
      const { key } = await t.keyFor({ workspace: `writes-${n}` });
      const api = t.api(key);
      for (let i = 0; i < scenario.steps.length; i++) {
        const step = scenario.steps[i];
        const res = await api.post('/v1/memories', { content: step.content, user_id: step.user_id, timestamp: stepTime(scenario, i) });
        expect(res.status).toBe(200);
      }
      await t.settle(key, 60_000);
      await checkOutcome(api, scenario);
    });
    await Promise.all(runs);
  }, 120_000);

  it('chronological batches reconstruct the supersede chain', async () => {
    const runs = scenarios.map(async (scenario, n) => {
      const { key } = await t.keyFor({ workspace: `batch-${n}` });
      const api = t.api(key);
      const memories = scenario.steps.map((step, i) => ({ content: step.content, user_id: step.user_id, timestamp: stepTime(scenario, i) }));
      const batch = (await api.post('/v1/batch', { memories })).body;
      for (;;) {
        const body = (await api.get(`/v1/batch/${batch.id}`)).body;
        if (body.status === 'completed') {
          expect(body.failed).toBe(0);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
      await checkOutcome(api, scenario);
    });
    await Promise.all(runs);
  }, 120_000);
});
