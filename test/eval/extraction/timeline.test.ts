import { describe, expect, it } from 'vitest';
import { RuleContradictionJudge, decideByRules } from '../../../pipeline/contradiction/rule-judge.js';
import { isSingleValued } from '../../../pipeline/extraction/taxonomy.js';
import { RuleFactExtractor } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { normalizeObject, subjectKey } from '../../../pipeline/extraction/normalize.js';
import type { CandidateFact, IncomingFact } from '../../../pipeline/types.js';
import { loadCorpus } from './corpus.js';
import { scenarios } from './scenarios.js';
import { simulate, type TimelineFact } from './simulate.js';

/**
 * The time rules of the contradiction stage, through the real commit logic (simulate.ts runs
 * placeFact on an in-memory SQLite store). Scenarios written for this file.
 */
const deps = { extractor: new RuleFactExtractor(), judge: new RuleContradictionJudge() };
const at = (iso: string) => Date.parse(iso);
const validAt = (f: TimelineFact, t: number) => Date.parse(f.validFrom) <= t && (f.invalidAt === null || t < Date.parse(f.invalidAt));
const objectsAt = (facts: TimelineFact[], predicate: string, t: string) => facts.filter((f) => f.predicate === predicate && validAt(f, at(t))).map((f) => f.object);
const run = (...steps: [string, string][]) => simulate(steps.map(([timestamp, content]) => ({ user_id: 'u', content, timestamp })), deps);

describe('timeline rules', () => {
  it('a later statement about the present beats an earlier undated one, even when its date is earlier', async () => {
    const facts = await run(['2024-06-01T09:00:00Z', 'I live in Porto.'], ['2024-06-08T09:00:00Z', 'Actually I moved to Braga last month.']);
    expect(objectsAt(facts, 'lives_in', '2024-06-08T09:00:00Z')).toEqual(['Braga']);
    expect(objectsAt(facts, 'lives_in', '2024-05-20T00:00:00Z')).toEqual(['Braga']);
  });

  it('a planned move keeps the current home valid until its date, then takes over', async () => {
    const facts = await run(['2024-01-05T09:00:00Z', 'I live in Ghent.'], ['2024-06-15T09:00:00Z', "We're moving to Antwerp next spring!"]);
    const plan = facts.find((f) => f.object === 'Antwerp')!;
    expect(plan.validFrom.slice(0, 10)).toBe('2025-03-01');
    expect(objectsAt(facts, 'lives_in', '2024-06-15T09:00:00Z')).toEqual(['Ghent']);
    expect(objectsAt(facts, 'lives_in', '2025-04-01T00:00:00Z')).toEqual(['Antwerp']);
  });

  it('a cancelled plan restores the value it would have ended', async () => {
    const facts = await run(
      ['2024-01-05T09:00:00Z', 'I work at Ocado.'],
      ['2024-05-01T09:00:00Z', 'I accepted an offer from Wise, starting on 1 September.'],
      ['2024-07-01T09:00:00Z', 'I am not joining Wise after all.'],
    );
    expect(facts.some((f) => f.object === 'Wise')).toBe(true);
    expect(objectsAt(facts, 'works_at', '2024-09-15T00:00:00Z')).toEqual(['Ocado']);
  });

  it('a rescheduled event moves to its new date', async () => {
    const facts = await run(['2024-03-01T09:00:00Z', "My sister's wedding is on 8 June."], ['2024-04-10T09:00:00Z', "My sister's wedding got pushed back to 14 September."]);
    expect(objectsAt(facts, 'attending', '2024-06-20T00:00:00Z')).toEqual([]);
    expect(objectsAt(facts, 'attending', '2024-09-14T12:00:00Z')).toHaveLength(1);
  });

  it('a wedding moved without naming the partner moves the planned marriage', async () => {
    const facts = await run(['2024-02-03T09:00:00Z', 'Sam and I are getting married on 6 July 2024'], ['2024-04-11T09:00:00Z', 'venue fell through! the wedding is now 14 June 2025']);
    expect(objectsAt(facts, 'married_to', '2024-08-01T00:00:00Z')).toEqual([]);
    expect(objectsAt(facts, 'married_to', '2025-07-01T00:00:00Z')).toEqual(['Sam']);
    expect(objectsAt(facts, 'partner', '2024-05-01T00:00:00Z')).toEqual(['Sam']);
  });

  it('coming back from a planned trip ends the plan and keeps the visit', async () => {
    const facts = await run(['2024-02-01T09:00:00Z', 'lisbon trip on 10 March!'], ['2024-03-20T09:00:00Z', 'just got back from Lisbon, legs destroyed']);
    expect(objectsAt(facts, 'trip_to', '2024-04-01T00:00:00Z')).toEqual([]);
    expect(objectsAt(facts, 'visited', '2024-04-01T00:00:00Z')).toEqual(['Lisbon']);
  });

  it('a clinic cancelling an appointment named by its short form cancels it', async () => {
    const facts = await run(['2024-02-01T09:00:00Z', 'The user has a physiotherapy appointment on 9 March.'], ['2024-02-20T09:00:00Z', 'The clinic cancelled the user\'s physio appointment.']);
    expect(objectsAt(facts, 'has_appointment', '2024-03-09T12:00:00Z')).toEqual([]);
  });

  it('a past fact with only an end date is visible before that end, not after', async () => {
    const facts = await run(['2023-11-20T09:00:00Z', 'my aunt Greta lived in Innsbruck till 1979']);
    expect(objectsAt(facts, 'lives_in', '1972-03-01T00:00:00Z')).toEqual(['Innsbruck']);
    expect(objectsAt(facts, 'lives_in', '1990-03-01T00:00:00Z')).toEqual([]);
    const ended = await run(['2023-11-20T09:00:00Z', 'I worked at Nokia until 2009.']);
    expect(objectsAt(ended, 'works_at', '2005-01-01T00:00:00Z')).toEqual(['Nokia']);
    expect(objectsAt(ended, 'works_at', '2010-01-01T00:00:00Z')).toEqual([]);
  });

  it('"In 2015 I lived in Rome" is visible as of 2015 and not now', async () => {
    const facts = await run(['2024-02-01T09:00:00Z', 'I live in Oslo.'], ['2024-02-02T09:00:00Z', 'In 2015 I lived in Rome.']);
    expect(objectsAt(facts, 'lives_in', '2015-06-01T00:00:00Z')).toEqual(['Rome']);
    expect(objectsAt(facts, 'lives_in', '2024-02-02T09:00:00Z')).toEqual(['Oslo']);
    // On its own, a past statement holds through the period it names.
    const alone = await run(['2024-02-02T09:00:00Z', 'In 2015 I lived in Rome.']);
    expect(objectsAt(alone, 'lives_in', '2015-06-01T00:00:00Z')).toEqual(['Rome']);
    expect(objectsAt(alone, 'lives_in', '2016-06-01T00:00:00Z')).toEqual([]);
  });

  it('the judge gets the same cases: a plan that has not started is rescheduled, a later one ends the new fact', () => {
    const day = (d: string) => new Date(`${d}T00:00:00Z`);
    const plan: CandidateFact = { id: 'p', subject: 'user', predicate: 'lives_in', object: 'Leeds', validFrom: day('2024-09-01'), seq: 2 };
    const early: IncomingFact = { subject: 'user', predicate: 'lives_in', object: 'Leeds', negated: false, validFrom: day('2024-07-01'), seq: 3, validFromStated: true, referenceTime: day('2024-07-10') };
    expect(decideByRules(early, [plan])).toEqual({ kind: 'reschedule', cancel: ['p'] });
    const other: IncomingFact = { ...early, object: 'York', validFromStated: false, validFrom: day('2024-07-10') };
    expect(decideByRules(other, [plan])).toMatchObject({ kind: 'insert', invalidate: [], closedAt: day('2024-09-01'), closedBy: 'p' });
  });
});

describe('point-in-time views stay consistent over every scenario', () => {
  const all = [...scenarios, ...loadCorpus('dev').scenarios];
  it(`no fact valid before its own valid_from; never two valid values of a single-valued predicate (${all.length} scenarios)`, async () => {
    for (const scenario of all) {
      const facts = await simulate(scenario.steps, deps);
      for (const f of facts) if (f.invalidAt) expect(Date.parse(f.invalidAt), `${scenario.name}: ${f.object}`).toBeGreaterThanOrEqual(Date.parse(f.validFrom));
      const instants = [...new Set(facts.flatMap((f) => [f.validFrom, f.invalidAt].filter((x): x is string => x !== null)))].map(Date.parse);
      const groups = new Map<string, TimelineFact[]>();
      for (const f of facts.filter((x) => isSingleValued(x.predicate))) {
        const key = `${f.userId}|${subjectKey(f.subject)}|${f.predicate}`;
        groups.set(key, [...(groups.get(key) ?? []), f]);
      }
      for (const [key, group] of groups) {
        for (const t of instants) {
          const values = new Set(group.filter((f) => validAt(f, t)).map((f) => normalizeObject(f.object)));
          expect(values.size, `${scenario.id ?? scenario.name}: ${key} at ${new Date(t).toISOString()}`).toBeLessThanOrEqual(1);
        }
      }
    }
  }, 120_000);
});
