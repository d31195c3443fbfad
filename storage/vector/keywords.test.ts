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

  it("leave out what possessives and contractions leave behind, which matches every text with an apostrophe", () => {
    expect(stemmedText("my spouse's job")).toBe('my spous s job');
    expect(keywordTerms("What is his spouse's job? He didn't say, I'd guess")).toEqual(['spouse', 'job', 'say', 'guess']);
  });
});
