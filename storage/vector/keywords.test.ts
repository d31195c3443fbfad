import { describe, expect, it } from 'vitest';
import { keywordTerms, stemmedText } from './keywords.js';

describe('keyword query terms', () => {
  it('leave out grammar words and keep content words once', () => {
    expect(keywordTerms('What did Caroline do in the summer, and the Summer after?')).toEqual(['caroline', 'summer']);
  });

  it('leave out a name the stemmer indexes as a grammar word, so it does not match every text with that word', () => {
    expect(stemmedText('Inês')).toBe('in');
    expect(keywordTerms('When did Inês move to Lisbon?')).toEqual(['move', 'lisbon']);
  });
});
