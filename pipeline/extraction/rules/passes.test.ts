import { describe, expect, it } from 'vitest';
import { extractFactsWithRules, traceFactsWithRules } from './fact-extractor.js';
import { RULE_PASS_NAMES } from './passes.js';

const referenceTime = new Date('2024-06-15T12:00:00Z');
const traced = (content: string, skip?: string[]) =>
  traceFactsWithRules({ content, referenceTime }, { skip: skip && new Set(skip) }).map(({ pass, fact }) => [pass, `${fact.subject} ${fact.negated ? 'NOT ' : ''}${fact.predicate} ${fact.object}`]);

describe('rule passes', () => {
  it('names the pass that gave each fact', () => {
    expect(traced("I'm 34 and I live in Berlin.")).toEqual([
      ['ages', 'user age 34'],
      ['clauses', 'user lives_in Berlin'],
    ]);
    expect(traced('Name: Dana Kowalski\nCity: Leeds')).toEqual([
      ['label-lines', 'user name Dana Kowalski'],
      ['label-lines', 'user lives_in Leeds'],
    ]);
    expect(traced('We lost Clover last week.')).toEqual([['pet-losses', 'user NOT has_pet Clover']]);
  });

  it('gives the facts extraction gives, each under a pass of the list', () => {
    const content = 'My daughter Emma just turned 7. We moved to Leeds in March and I quit my job at Siemens.';
    const facts = traceFactsWithRules({ content, referenceTime });
    expect(facts.map((t) => t.fact)).toEqual(extractFactsWithRules({ content, referenceTime }));
    expect(facts.length).toBeGreaterThan(2);
    for (const { pass } of facts) expect(RULE_PASS_NAMES).toContain(pass);
  });

  it('leaves out the passes it is told to skip, and only those', () => {
    expect(traced('Name: Dana Kowalski\nCity: Leeds', ['label-lines'])).not.toContainEqual(expect.arrayContaining(['label-lines']));
    expect(traced('We lost Clover last week.', ['pet-losses'])).not.toContainEqual(expect.arrayContaining(['pet-losses']));
    expect(traced("I'm 34 and I live in Berlin.", ['homes'])).toEqual(traced("I'm 34 and I live in Berlin."));
  });
});
