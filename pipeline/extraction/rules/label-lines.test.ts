import { describe, expect, it } from 'vitest';
import type { ExtractedFact } from '../../types.js';
import { extractFactsWithRules } from './fact-extractor.js';
import { labelPredicate } from './label-lines.js';

const ref = new Date('2024-06-15T12:00:00Z');
const shown = (content: string) => extractFactsWithRules({ content, referenceTime: ref }).map((f: ExtractedFact) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('form labels name a predicate in the taxonomy’s own words', () => {
  it('reads a label by predicate name, description word, relation noun or form shorthand', () => {
    expect(labelPredicate('Flatmates')).toBe('has_roommate');
    expect(labelPredicate('Bank')).toBe('banks_with');
    expect(labelPredicate('Allergies')).toBe('allergic_to');
    expect(labelPredicate('Meds')).toBe('takes_medication');
    expect(labelPredicate("User's clubs")).toBe('member_of');
    expect(labelPredicate('Wants to visit')).toBe('wants_to_visit');
  });

  it('names nothing when the word is shared by several predicates or by none', () => {
    expect(labelPredicate('Languages')).toBeUndefined();
    expect(labelPredicate('School')).toBeUndefined();
    expect(labelPredicate('Reason')).toBeUndefined();
  });
});

describe('"label: values" lines', () => {
  it('gives one fact per listed value', () => {
    expect(shown('Flatmates: Odile & Kwame')).toEqual(['user has_roommate Odile', 'user has_roommate Kwame']);
    expect(shown('Allergies: sulfa drugs, shellfish and latex')).toEqual(['user allergic_to sulfa drugs', 'user allergic_to shellfish', 'user allergic_to latex']);
    expect(shown('Banks: Chase + Ally (savings)')).toEqual(['user banks_with Chase', 'user banks_with Ally']);
  });

  it('keeps an amount whole and a single-valued predicate to its first value', () => {
    expect(shown('Rent: $1,975/mo, paid on the 3rd')).toEqual(['user pays_rent $1,975/mo']);
  });

  it('keeps a measure or date as written, and lets a measure go without a colon', () => {
    expect(shown('Height 5\'11"')).toEqual(['user height 5\'11"']);
    expect(shown('Weight 71kg (was 75)')).toEqual(['user weight 71kg']);
    expect(shown('Birthday: March 14')).toEqual(['user birthday March 14']);
    expect(shown('I pay 900 a month for the nursery')).not.toContain('user pays_rent 900 a month');
  });

  it('skips values that are clauses and labels that name no predicate', () => {
    expect(shown('Car: sold the Corolla')).not.toContain('user drives sold the Corolla');
    expect(shown('Reason: moving closer to family')).toEqual([]);
  });
});
