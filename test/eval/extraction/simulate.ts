import Database from 'better-sqlite3';
import type { ContradictionJudge, FactExtractor } from '../../../pipeline/types.js';
import { factRules } from '../../../pipeline/extraction/fact-rules.js';
import { normalizeObject, subjectKey } from '../../../pipeline/extraction/normalize.js';
import { placeFact } from '../../../core/commands/fact-placement.js';
import { messageEndings } from '../../../pipeline/contradiction/endings.js';
import { factDraftOf } from '../../../pipeline/write/stages.js';
import { migrate } from '../../../storage/sqlite/schema.js';
import { SqliteStore } from '../../../storage/sqlite/store.js';
import type { Scenario, ScenarioFact, ScenarioKey, ScenarioStep } from './scenarios.js';
import { alternatives } from './types.js';

/**
 * Replays scenarios without the server: each step goes through the extractor, then the real commit
 * logic of the write pipeline (`placeFact`: stage 1 candidates, the judge, invalidation, plans) on an
 * in-memory SQLite store. The end-to-end test replays the same scenarios over HTTP in both run modes.
 */

/** A stored fact as the checks see it (from the store here, from GET /v1/facts over HTTP). */
export interface TimelineFact {
  userId: string;
  subject: string;
  predicate: string;
  object: string;
  validFrom: string;
  invalidAt: string | null;
}

/** Steps without a timestamp are written one minute apart from this time. */
export const SIMULATION_START = Date.parse('2024-06-01T10:00:00.000Z');

export const stepTime = (steps: ScenarioStep[], i: number) => steps[i].timestamp ?? new Date(SIMULATION_START + i * 60_000).toISOString();

export interface SimulationDeps {
  extractor: FactExtractor;
  judge: ContradictionJudge;
}

const WORKSPACE = 'ws_simulation';

/** Runs the steps in order; returns every stored fact (live and history). */
export async function simulate(steps: ScenarioStep[], deps: SimulationDeps): Promise<TimelineFact[]> {
  const db = new Database(':memory:');
  migrate(db);
  const store = new SqliteStore(db);
  const pipeline = { store, rules: factRules, judge: deps.judge };
  try {
    for (let i = 0; i < steps.length; i++) {
      const referenceTime = new Date(stepTime(steps, i));
      const extracted = await deps.extractor.extractFacts({ content: steps[i].content, referenceTime });
      const drafts = extracted.map((f) => factDraftOf(f, referenceTime));
      // As the commit does: what the message ends without saying it as a fact, asked before its own facts land.
      const scope = { workspaceId: WORKSPACE, agentId: null, userId: steps[i].user_id };
      const endings = await messageEndings(pipeline, { scope, memoryId: null, content: steps[i].content, referenceTime: referenceTime.toISOString(), facts: drafts });
      const facts = [...drafts, ...endings];
      for (let j = 0; j < facts.length; j++) {
        const fact = facts[j];
        await placeFact(pipeline, {
          memory: { workspaceId: WORKSPACE, agentId: null, userId: steps[i].user_id, runId: null, id: null },
          factId: `fct_${i}_${j}`,
          fact,
          seq: i + 1,
          sourceVersion: 1,
          token: `step:${i}:${j}`,
          at: referenceTime.toISOString(),
        });
      }
    }
    const all = await store.facts.query({ workspaceId: WORKSPACE, includeInvalidated: true }, { limit: 10_000, offset: 0 });
    return all.items.map((f) => ({ userId: f.userId ?? '', subject: f.subject, predicate: f.predicate, object: f.object, validFrom: f.validFrom, invalidAt: f.invalidAt }));
  } finally {
    db.close();
  }
}

const validAt = (f: TimelineFact, t: number) => Date.parse(f.validFrom) <= t && (f.invalidAt === null || t < Date.parse(f.invalidAt));
const cancelled = (f: TimelineFact) => f.invalidAt !== null && Date.parse(f.invalidAt) <= Date.parse(f.validFrom);
const plannedAt = (f: TimelineFact, t: number) => Date.parse(f.validFrom) > t && !cancelled(f);

const sameKey = (f: TimelineFact, key: ScenarioKey) => f.userId === key.user_id && subjectKey(f.subject) === subjectKey(key.subject) && f.predicate === key.predicate;
const sameFact = (f: TimelineFact, e: ScenarioFact) => sameKey(f, e) && alternatives(e.object).some((o) => normalizeObject(o) === normalizeObject(f.object));
const show = (f: ScenarioFact) => `${f.user_id}/${f.subject} ${f.predicate} ${alternatives(f.object).join('|')}`;
const showStored = (f: TimelineFact) => `${f.userId}/${f.subject} ${f.predicate} ${f.object} [${f.validFrom.slice(0, 10)}, ${f.invalidAt?.slice(0, 10) ?? '∞'})`;

/** The instant the expectations refer to: the last step's time (the latest, if steps were sent out of order). */
export const scenarioNow = (scenario: Scenario) => Math.max(...scenario.steps.map((_, i) => Date.parse(stepTime(scenario.steps, i))));

/**
 * Problems with a scenario's outcome (empty when it passes). now = the last step's time; a fact is
 * valid at t when validFrom <= t < invalidAt.
 *  - expectLive: exactly one matching fact valid now;
 *  - expectPlanned: a matching fact that starts after now and was not cancelled;
 *  - expectInvalidated: stored, but neither valid now nor planned;
 *  - expectNoLive: no fact of that key valid now; and no other value of an expected key is valid now;
 *  - asOf: at each `at`, expectLive facts valid and expectNotLive facts not.
 */
export function checkScenario(scenario: Scenario, facts: TimelineFact[]): string[] {
  const problems: string[] = [];
  const now = scenarioNow(scenario);
  for (const e of scenario.expectLive) {
    const n = facts.filter((f) => sameFact(f, e) && validAt(f, now)).length;
    if (n !== 1) problems.push(`expected one live "${show(e)}", found ${n}`);
  }
  for (const e of scenario.expectPlanned ?? []) {
    if (!facts.some((f) => sameFact(f, e) && plannedAt(f, now))) problems.push(`expected planned "${show(e)}"`);
  }
  for (const e of scenario.expectInvalidated ?? []) {
    const stored = facts.filter((f) => sameFact(f, e));
    if (stored.length === 0) problems.push(`expected "${show(e)}" in history, never stored`);
    if (stored.some((f) => validAt(f, now) || plannedAt(f, now))) problems.push(`expected "${show(e)}" not live or planned, but it is`);
  }
  const keys: ScenarioKey[] = [...scenario.expectLive, ...(scenario.expectInvalidated ?? []), ...(scenario.expectNoLive ?? [])];
  for (const key of keys) {
    for (const f of facts.filter((x) => sameKey(x, key) && validAt(x, now))) {
      if (!scenario.expectLive.some((e) => sameFact(f, e))) problems.push(`unexpected live "${showStored(f)}"`);
    }
  }
  for (const check of scenario.asOf ?? []) {
    const t = Date.parse(check.at);
    for (const e of check.expectLive ?? []) if (!facts.some((f) => sameFact(f, e) && validAt(f, t))) problems.push(`as of ${check.at}: expected "${show(e)}" valid`);
    for (const e of check.expectNotLive ?? []) if (facts.some((f) => sameFact(f, e) && validAt(f, t))) problems.push(`as of ${check.at}: expected "${show(e)}" not valid`);
  }
  if (problems.length > 0) problems.push(`stored: ${facts.map(showStored).join('; ')}`);
  return [...new Set(problems)];
}

export interface ScenarioResult {
  id?: string;
  name: string;
  passed: boolean;
  problems: string[];
}

export async function runScenarios(scenarios: Scenario[], deps: SimulationDeps): Promise<{ accuracy: number; passed: number; results: ScenarioResult[] }> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const problems = checkScenario(scenario, await simulate(scenario.steps, deps));
    results.push({ id: scenario.id, name: scenario.name, passed: problems.length === 0, problems });
  }
  const passed = results.filter((r) => r.passed).length;
  return { accuracy: results.length === 0 ? 1 : Math.round((passed / results.length) * 1000) / 1000, passed, results };
}
