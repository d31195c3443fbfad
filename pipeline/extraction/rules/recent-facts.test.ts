import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { ruleFactsOf } from './recent-facts.js';

const REF = new Date('2024-06-15T12:00:00Z');

describe('recent rule facts', () => {
  it('gives the facts rule extraction gives, for each reference time', () => {
    const content = 'I moved to Lisbon last year and my sister Anna works at Siemens.';
    expect(ruleFactsOf({ content, referenceTime: REF })).toEqual(extractFactsWithRules({ content, referenceTime: REF }));
    const later = new Date('2025-06-15T12:00:00Z');
    expect(ruleFactsOf({ content, referenceTime: later })).toEqual(extractFactsWithRules({ content, referenceTime: later }));
  });

  it('hands each caller its own copies', () => {
    const input = { content: 'I live in Berlin.', referenceTime: REF };
    const first = ruleFactsOf(input);
    first[0].object = 'Paris';
    first.pop();
    expect(ruleFactsOf(input).map((f) => f.object)).toEqual(['Berlin']);
  });
});
