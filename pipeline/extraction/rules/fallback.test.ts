import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const facts = (content: string) => extractFactsWithRules({ content, referenceTime: new Date('2024-06-15T12:00:00Z') });

describe('relations outside the taxonomy', () => {
  it('are kept with family other, a verb-shaped predicate and the verb as written', () => {
    const [fact] = facts('User volunteers at the Humane Society every other Saturday.');
    expect(fact).toMatchObject({ subject: 'user', predicate: 'volunteers_at', object: 'Humane Society', family: 'other', negated: false });
    expect(fact.predicateRaw).toMatch(/volunteers at/i);
    expect(facts("I've started volunteering at the food bank on Saturdays").map((f) => `${f.predicate} ${f.object}`)).toEqual(['volunteers_at food bank']);
  });

  it('are not made from light verbs, taxonomy verbs that failed to parse, or company', () => {
    expect(facts('I was thinking about the weekend')).toEqual([]);
    expect(facts('I was hiking with some buddies')).toEqual([]);
    expect(facts('User diagnosed with ADHD at 30').every((f) => f.family !== 'other')).toBe(true);
  });

  it('are only about the user or a named person', () => {
    expect(facts('my cousin volunteers at the Red Cross').filter((f) => f.family === 'other')).toEqual([]);
  });
});

describe('facts implied by another fact', () => {
  it('a named car the user drives is a car the user owns; a bus is not', () => {
    const shown = (content: string) => facts(content).map((f) => `${f.predicate} ${f.object}`);
    expect(shown('I drive a Skoda Octavia estate')).toEqual(['drives Skoda Octavia estate', 'owns Skoda Octavia estate']);
    expect(shown('i drive a bus in nottingham')).toEqual(['drives bus']);
  });
});

describe('activity verbs without an object', () => {
  const shown = (content: string) => facts(content).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);
  it('are hobbies when WordNet calls the activity a sport, craft or art; denied ones are denied hobbies', () => {
    expect(shown('I knit. constantly.')).toEqual(['hobby knitting']);
    expect(shown('I swim every morning')).toEqual(['hobby swimming']);
    expect(shown("I don't surf")).toEqual(['NOT hobby surfing']);
  });

  it('are not hobbies with an object or for everyday verbs', () => {
    expect(shown('I paint houses for a living')).toEqual([]);
    expect(shown('I cook')).toEqual([]);
  });
});
