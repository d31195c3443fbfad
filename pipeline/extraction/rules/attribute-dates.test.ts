import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const facts = (content: string, at: string) => extractFactsWithRules({ content, referenceTime: new Date(at) });

describe('dates stated with an attribute change', () => {
  it('a raise from a later month is a plan starting then, not a change now', () => {
    const [pay] = facts('my pay goes up to 52k in April, finally', '2024-12-03T10:00:00Z').filter((f) => f.predicate === 'salary');
    expect(pay).toMatchObject({ object: '52k', tense: 'planned' });
    expect(pay.validFrom?.toISOString().slice(0, 10)).toBe('2025-04-01');
  });

  it('a change reported in the past tense is dated to the month it names', () => {
    const [rent] = facts('my rent went up to £975 in February', '2024-06-20T10:00:00Z').filter((f) => f.predicate === 'pays_rent');
    expect(rent).toMatchObject({ tense: 'current' });
    expect(rent.validFrom?.toISOString().slice(0, 10)).toBe('2024-02-01');
  });

  it('an undated attribute keeps no stated date', () => {
    const [pay] = facts('my salary is 38k', '2024-06-20T10:00:00Z');
    expect(pay).toMatchObject({ predicate: 'salary', tense: 'current', validFrom: null });
  });
});
