import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map(
    (f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.tense} ${f.validFrom?.toISOString().slice(0, 10) ?? '-'}`,
  );

describe('attributes of the people around the user', () => {
  it('belong to whoever the possessive names', () => {
    expect(described("my brother's rent went up to €950")).toEqual(['user\'s brother pays_rent €950 current -']);
    expect(described("Priya's salary is 48k")).toEqual(['Priya salary 48k current -']);
    expect(described('my flatmate pays £700 for his room')).toEqual(["user's roommate pays_rent £700 current -"]);
  });
  it('never fall to the user when the owner is someone else', () => {
    expect(described("the landlord's rent went up to £2,000")).toEqual([]);
  });
});
