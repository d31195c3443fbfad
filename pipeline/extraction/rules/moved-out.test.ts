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
