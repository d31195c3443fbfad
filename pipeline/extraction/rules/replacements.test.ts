import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('a thing moved from one provider to another', () => {
  it('ends the old one and starts the new one, named by provider', () => {
    expect(described('Finally moved our mortgage from Santander to Barclays, saves us £90 a month')).toEqual(
      expect.arrayContaining(['user NOT has_loan Santander mortgage', 'user has_loan Barclays mortgage']),
    );
  });
  it('keeps the provider that tells two loans apart', () => {
    expect(described('We have a mortgage with Skipton')).toContain('user has_loan Skipton mortgage');
  });
});
