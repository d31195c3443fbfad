import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('people named in a group', () => {
  it('are one relation each', () => {
    expect(described('my housemates are Kofi, Lena and Raj')).toEqual(['user has_roommate Kofi', 'user has_roommate Lena', 'user has_roommate Raj']);
  });
});

describe('a relation that ends by name', () => {
  it('ends sharing the home when someone moves out', () => {
    expect(described("lena moved out on sunday, the house is so quiet")).toContain('user NOT has_roommate Lena');
    expect(described("Raj has finally moved out!")).toContain('user NOT has_roommate Raj');
  });
  it('reads "is no longer my ..." as the end of that relation', () => {
    expect(described('Omar is no longer my manager')).toContain('user NOT has_manager Omar');
  });
  it('leaves the user moving out alone', () => {
    expect(described('I moved out in May').some((f) => f.includes('has_roommate'))).toBe(false);
  });
});

describe('other endings said of the person or the thing', () => {
  it('a partner one is no longer with', () => {
    expect(described("I'm not with Callum any more")).toEqual(['user NOT partner Callum']);
    expect(described('no longer seeing Ines, it was mutual')).toEqual(['user NOT partner Ines']);
  });
  it('a medication one is off', () => {
    expect(described("I'm finally off the citalopram")).toEqual(['user NOT takes_medication citalopram']);
    expect(described("I'm off work till Monday")).toEqual([]);
  });
  it('a car swapped for another is owned, not used', () => {
    expect(described('we swapped the Fiesta for a Golf')).toEqual(['user NOT owns Fiesta', 'user owns Golf']);
  });
});
