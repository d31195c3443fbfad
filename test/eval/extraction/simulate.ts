import type { ContradictionJudge, ExtractedFact, FactExtractor, IncomingFact, Tense } from '../../../pipeline/types.js';
import { candidatePredicates } from '../../../pipeline/extraction/taxonomy.js';
import { normalizeObject, subjectKey } from '../../../pipeline/extraction/normalize.js';
import type { Scenario, ScenarioFact, ScenarioKey, ScenarioStep } from './scenarios.js';

/**
 * A pure in-memory stand-in for the write pipeline's fact stages, so scenario
 * accuracy is measurable without the server: extract -> stage 1 (live facts with
 * the same user, subject and a candidate predicate) -> judge -> apply.
 *
 * Applying a decision (what the real commit stage should do too):
 *  - confirm: bump the confirmed fact's observation count, store nothing;
 *  - insert: invalidate the listed facts at `validTo ?? validFrom` of the new fact, store it live;
 *  - insert_closed: store the new fact already closed at `closedAt`;
 *  - retract: invalidate the listed facts, store nothing.
 */

export interface StoredFact {
  id: string;
  userId: string;
  subject: string;
  predicate: string;
  object: string;
  tense: Tense;
  validFrom: Date;
  validTo: Date | null;
  seq: number;
  live: boolean;
  observations: number;
}

/** Steps without a timestamp are written one minute apart from this time. */
export const SIMULATION_START = Date.parse('2024-06-01T10:00:00.000Z');

export class InMemoryFactStore {
  readonly facts: StoredFact[] = [];
  private nextId = 1;

  liveCandidates(userId: string, subject: string, predicates: string[]): StoredFact[] {
    const key = subjectKey(subject);
    return this.facts.filter((f) => f.live && f.userId === userId && subjectKey(f.subject) === key && predicates.includes(f.predicate));
  }

  add(fact: Omit<StoredFact, 'id' | 'observations'>): StoredFact {
    const stored = { ...fact, id: `f${this.nextId++}`, observations: 1 };
    this.facts.push(stored);
    return stored;
  }

  invalidate(ids: string[], at: Date): void {
    for (const fact of this.facts) {
      if (ids.includes(fact.id) && fact.live) {
        fact.live = false;
        fact.validTo = at;
      }
    }
  }

  confirm(id: string): void {
    const fact = this.facts.find((f) => f.id === id);
    if (fact) fact.observations++;
  }
}

export interface SimulationDeps {
  extractor: FactExtractor;
  judge: ContradictionJudge;
}

/** Runs the steps in order through extractor and judge; returns the resulting store. */
export async function simulate(steps: ScenarioStep[], deps: SimulationDeps): Promise<InMemoryFactStore> {
  const store = new InMemoryFactStore();
  let seq = 0;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i];
    const referenceTime = step.timestamp ? new Date(step.timestamp) : new Date(SIMULATION_START + i * 60_000);
    const facts = await deps.extractor.extractFacts({ content: step.content, referenceTime });
    for (const fact of facts) {
      seq++;
      await placeFact(store, deps.judge, step.user_id, fact, referenceTime, seq);
    }
  }
  return store;
}

async function placeFact(store: InMemoryFactStore, judge: ContradictionJudge, userId: string, fact: ExtractedFact, referenceTime: Date, seq: number): Promise<void> {
  const incoming: IncomingFact = {
    subject: fact.subject,
    predicate: fact.predicate,
    object: fact.object,
    negated: fact.negated,
    validFrom: fact.validFrom ?? referenceTime,
    seq,
    tense: fact.tense,
    validTo: fact.validTo ?? null,
  };
  const candidates = store.liveCandidates(userId, fact.subject, candidatePredicates(fact.predicate));
  const decision = await judge.decide(
    incoming,
    candidates.map((c) => ({ id: c.id, subject: c.subject, predicate: c.predicate, object: c.object, validFrom: c.validFrom, seq: c.seq })),
  );
  const closeAt = incoming.validTo ?? incoming.validFrom;
  const record = { userId, subject: fact.subject, predicate: fact.predicate, object: fact.object, tense: fact.tense, validFrom: incoming.validFrom, seq };
  switch (decision.kind) {
    case 'confirm':
      store.confirm(decision.factId);
      return;
    case 'insert':
      store.invalidate(decision.invalidate, closeAt);
      store.add({ ...record, validTo: null, live: true });
      return;
    case 'insert_closed':
      store.add({ ...record, validTo: decision.closedAt, live: false });
      return;
    case 'retract':
      store.invalidate(decision.invalidate, closeAt);
      return;
  }
}

function sameFact(stored: StoredFact, expected: ScenarioFact): boolean {
  return (
    stored.userId === expected.user_id &&
    subjectKey(stored.subject) === subjectKey(expected.subject) &&
    stored.predicate === expected.predicate &&
    normalizeObject(stored.object) === normalizeObject(expected.object)
  );
}

function sameKey(stored: StoredFact, key: ScenarioKey): boolean {
  return stored.userId === key.user_id && subjectKey(stored.subject) === subjectKey(key.subject) && stored.predicate === key.predicate;
}

const show = (f: ScenarioFact) => `${f.user_id}/${f.subject} ${f.predicate} ${f.object}`;

/**
 * A scenario passes when every expectLive fact has exactly one live copy, every
 * expectInvalidated fact is stored but not live (invalidated or stored closed),
 * no (user, subject, predicate) named by either list has other live facts, and
 * every expectNoLive key has no live fact at all.
 */
export function checkScenario(scenario: Scenario, store: InMemoryFactStore): string[] {
  const problems: string[] = [];
  for (const expected of scenario.expectLive) {
    const live = store.facts.filter((f) => f.live && sameFact(f, expected));
    if (live.length !== 1) problems.push(`expected one live "${show(expected)}", found ${live.length}`);
  }
  for (const expected of scenario.expectInvalidated ?? []) {
    const stored = store.facts.filter((f) => sameFact(f, expected));
    if (stored.length === 0) problems.push(`expected "${show(expected)}" in history, never stored`);
    if (stored.some((f) => f.live)) problems.push(`expected "${show(expected)}" not live, but it is`);
  }
  const keys: ScenarioKey[] = [...scenario.expectLive, ...(scenario.expectInvalidated ?? []), ...(scenario.expectNoLive ?? [])];
  for (const key of keys) {
    for (const fact of store.facts.filter((f) => f.live && sameKey(f, key))) {
      if (!scenario.expectLive.some((e) => sameFact(fact, e))) problems.push(`unexpected live "${fact.userId}/${fact.subject} ${fact.predicate} ${fact.object}"`);
    }
  }
  return [...new Set(problems)];
}

export interface ScenarioResult {
  name: string;
  passed: boolean;
  problems: string[];
}

export async function runScenarios(scenarios: Scenario[], deps: SimulationDeps): Promise<{ accuracy: number; results: ScenarioResult[] }> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const store = await simulate(scenario.steps, deps);
    const problems = checkScenario(scenario, store);
    results.push({ name: scenario.name, passed: problems.length === 0, problems });
  }
  const passed = results.filter((r) => r.passed).length;
  return { accuracy: results.length === 0 ? 1 : Math.round((passed / results.length) * 1000) / 1000, results };
}
