import { describe, expect, it } from 'vitest';
import { RuleContradictionJudge } from '../../../pipeline/contradiction/rule-judge.js';
import { RuleFactExtractor } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { simulate, type TimelineFact } from './simulate.js';

/**
 * Change statements through the real commit logic (extractor -> stage 1 -> judge -> placeFact on an
 * in-memory store): what is valid when, after each kind of change. Conversations written for this file.
 */
const deps = { extractor: new RuleFactExtractor(), judge: new RuleContradictionJudge() };
const validAt = (f: TimelineFact, t: number) => Date.parse(f.validFrom) <= t && (f.invalidAt === null || t < Date.parse(f.invalidAt));
const valuesAt = (facts: TimelineFact[], predicate: string, iso: string) => facts.filter((f) => f.predicate === predicate && validAt(f, Date.parse(iso))).map((f) => f.object).sort();
const run = (...steps: [string, string][]) => simulate(steps.map(([timestamp, content]) => ({ user_id: 'u', content, timestamp })), deps);

describe('changes over time', () => {
  it('selling a car named briefly ends owning and driving the fully named one; the new one is owned', async () => {
    const facts = await run(['2023-02-01T09:00:00Z', 'my car is a Skoda Octavia'], ['2024-04-01T09:00:00Z', 'sold the Octavia and bought a Kia Niro']);
    expect(valuesAt(facts, 'owns', '2024-04-02T00:00:00Z')).toEqual(['Kia Niro']);
    expect(valuesAt(facts, 'drives', '2024-04-02T00:00:00Z')).toEqual([]);
    expect(valuesAt(facts, 'drives', '2023-06-01T00:00:00Z')).toEqual(['Skoda Octavia']);
  });

  it('leaving an employer named briefly and joining another in one message', async () => {
    const facts = await run(['2022-01-01T09:00:00Z', "I'm a porter at St Thomas' Hospital"], ['2024-05-02T09:00:00Z', 'Left St Thomas in April and joined Barts Health']);
    expect(valuesAt(facts, 'works_at', '2024-05-03T00:00:00Z')).toEqual(['Barts Health']);
  });

  it('a planned move named with its origin keeps the origin valid until the move', async () => {
    const facts = await run(['2024-05-01T09:00:00Z', 'We are moving from Turin to Milan in October']);
    expect(valuesAt(facts, 'lives_in', '2024-07-01T00:00:00Z')).toEqual(['Turin']);
    expect(valuesAt(facts, 'lives_in', '2024-11-01T00:00:00Z')).toEqual(['Milan']);
  });

  it('a life history told in one message is visible at each point in time', async () => {
    const facts = await run(['2024-01-10T09:00:00Z', 'I lived in Graz from 2005 to 2011, then Vienna until 2018, and I have been in Linz since']);
    expect(valuesAt(facts, 'lives_in', '2008-06-01T00:00:00Z')).toEqual(['Graz']);
    expect(valuesAt(facts, 'lives_in', '2015-06-01T00:00:00Z')).toEqual(['Vienna']);
    expect(valuesAt(facts, 'lives_in', '2020-06-01T00:00:00Z')).toEqual(['Linz']);
    expect(valuesAt(facts, 'lives_in', '2024-01-10T09:00:00Z')).toEqual(['Linz']);
  });

  it('a move that happens earlier than planned replaces the plan', async () => {
    const facts = await run(
      ['2024-01-01T09:00:00Z', 'I live in Exeter'],
      ['2024-03-01T09:00:00Z', 'We are moving to Bristol in September'],
      ['2024-07-10T09:00:00Z', 'Moved early! We are in Bristol as of last week'],
    );
    expect(valuesAt(facts, 'lives_in', '2024-07-10T09:00:00Z')).toEqual(['Bristol']);
    expect(valuesAt(facts, 'lives_in', '2024-06-01T00:00:00Z')).toEqual(['Exeter']);
  });

  it('a withdrawn offer cancels the planned job and the current one stays', async () => {
    const facts = await run(
      ['2024-01-01T09:00:00Z', 'I work at Tesco'],
      ['2024-05-01T09:00:00Z', 'accepted an offer at Ocado, starting 1 August'],
      ['2024-06-01T09:00:00Z', 'Ocado pulled the offer, budget cuts'],
    );
    expect(valuesAt(facts, 'works_at', '2024-09-01T00:00:00Z')).toEqual(['Tesco']);
  });

  it('a joke about moving changes nothing', async () => {
    const facts = await run(['2024-01-01T09:00:00Z', 'I live in Dundee'], ['2024-02-01T09:00:00Z', "that's it, I'm moving to Tahiti (just kidding)"]);
    expect(valuesAt(facts, 'lives_in', '2024-02-01T09:00:00Z')).toEqual(['Dundee']);
  });
});
