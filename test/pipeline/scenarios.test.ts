import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleContradictionJudge } from '../../pipeline/contradiction/rule-judge.js';
import { HybridFactExtractor } from '../../pipeline/extraction/model/hybrid-extractor.js';
import { loadCorpus } from '../eval/extraction/corpus.js';
import { scenarios as legacyScenarios, type Scenario } from '../eval/extraction/scenarios.js';
import { checkScenario, simulate, stepTime, type TimelineFact } from '../eval/extraction/simulate.js';
import { QUALITY_FLOORS, gatePart } from '../eval/extraction/floors.js';
import { testRedisUrl } from '../support/redis.js';
import { startTestServer, type ApiClient, type TestServer } from '../support/server.js';

/**
 * The contradiction scenarios (the in-repo set and the corpus part the quality gate applies to),
 * replayed end to end over HTTP in both run modes, one write at a time and as chronological batches.
 * Each outcome is read back from GET /v1/facts (history included) and judged with the same checks as
 * the simulator: the server must reach exactly the simulator's verdict on every scenario, every legacy
 * scenario must pass, and the corpus accuracy must meet the gate's floor. as_of reads are cross-checked.
 */
const part = gatePart();
const corpus = loadCorpus(part).scenarios;
const all: Scenario[] = [...legacyScenarios, ...corpus];
// What the servers run by default (EXTRACTOR=model).
const deps = { extractor: new HybridFactExtractor(), judge: new RuleContradictionJudge() };

async function storedFacts(api: ApiClient, scenario: Scenario): Promise<TimelineFact[]> {
  const users = [...new Set(scenario.steps.map((s) => s.user_id))];
  const out: TimelineFact[] = [];
  for (const user of users) {
    const body = (await api.get(`/v1/facts?user_id=${encodeURIComponent(user)}&limit=200&include_invalidated=true`)).body;
    for (const f of body.facts) out.push({ userId: user, subject: f.subject, predicate: f.predicate, object: f.object, validFrom: f.valid_from, invalidAt: f.invalid_at });
  }
  return out;
}

/** GET /v1/facts?as_of= returns exactly the stored facts valid at that instant. */
async function checkAsOf(api: ApiClient, scenario: Scenario, facts: TimelineFact[]) {
  for (const check of scenario.asOf ?? []) {
    const t = Date.parse(check.at);
    for (const user of new Set(scenario.steps.map((s) => s.user_id))) {
      const body = (await api.get(`/v1/facts?user_id=${encodeURIComponent(user)}&limit=200&as_of=${encodeURIComponent(new Date(t).toISOString())}`)).body;
      const expected = facts.filter((f) => f.userId === user && Date.parse(f.validFrom) <= t && (f.invalidAt === null || t < Date.parse(f.invalidAt)));
      const key = (f: { subject: string; predicate: string; object: string }) => `${f.subject}|${f.predicate}|${f.object}`;
      expect(body.facts.map(key).sort(), `${scenario.id ?? scenario.name}: as_of ${check.at}`).toEqual(expected.map(key).sort());
    }
  }
}

const modes: [string, () => Record<string, string>][] = [
  ['in-process runner', () => ({})],
  ['BullMQ flows', () => ({ REDIS_URL: testRedisUrl() })],
];

describe.each(modes)('contradiction scenarios end to end (%s)', (_mode, env) => {
  let t: TestServer;
  const expected = new Map<Scenario, string[]>();
  beforeAll(async () => {
    t = await startTestServer(env());
    for (const scenario of all) expected.set(scenario, checkScenario(scenario, await simulate(scenario.steps, deps)));
  });
  afterAll(async () => t?.close());

  async function verdicts(replay: (api: ApiClient, scenario: Scenario, key: string) => Promise<void>, prefix: string) {
    const outcome = new Map<Scenario, string[]>();
    const limit = 8;
    for (let i = 0; i < all.length; i += limit) {
      await Promise.all(
        all.slice(i, i + limit).map(async (scenario, k) => {
          const n = i + k;
          const { key } = await t.keyFor({ workspace: `${prefix}-${n}` });
          const api = t.api(key);
          await replay(api, scenario, key);
          const facts = await storedFacts(api, scenario);
          outcome.set(scenario, checkScenario(scenario, facts));
          await checkAsOf(api, scenario, facts);
        }),
      );
    }
    for (const scenario of all) {
      const name = scenario.id ?? scenario.name;
      expect(outcome.get(scenario)!.length === 0, `${name}: ${outcome.get(scenario)!.join('\n')}`).toBe(expected.get(scenario)!.length === 0);
    }
    for (const scenario of legacyScenarios) expect(outcome.get(scenario), scenario.name).toEqual([]);
    if (corpus.length > 0) {
      const passed = corpus.filter((s) => outcome.get(s)!.length === 0).length;
      expect(passed / corpus.length).toBeGreaterThanOrEqual(QUALITY_FLOORS[part].scenarioAccuracy);
    }
  }

  it(`replays ${all.length} scenarios as individual writes`, async () => {
    await verdicts(async (api, scenario, key) => {
      for (let i = 0; i < scenario.steps.length; i++) {
        const step = scenario.steps[i];
        const res = await api.post('/v1/memories', { content: step.content, user_id: step.user_id, timestamp: stepTime(scenario.steps, i) });
        expect(res.status).toBe(200);
      }
      await t.settle(key, 60_000);
    }, 'writes');
  }, 300_000);

  it('chronological batches reconstruct the same timelines', async () => {
    await verdicts(async (api, scenario) => {
      const memories = scenario.steps.map((step, i) => ({ content: step.content, user_id: step.user_id, timestamp: stepTime(scenario.steps, i) }));
      const batch = (await api.post('/v1/batch', { memories })).body;
      for (;;) {
        const body = (await api.get(`/v1/batch/${batch.id}`)).body;
        if (body.status === 'completed') {
          expect(body.failed).toBe(0);
          break;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    }, 'batch');
  }, 300_000);
});
