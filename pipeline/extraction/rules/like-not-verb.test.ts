import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { isLikeButNotTaste } from './like-not-verb.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-01T00:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('"like" that is no taste', () => {
  it('ignores comparisons, fillers and sign-offs', () => {
    expect(isLikeButNotTaste('like a kid in a sweet shop')).toBe(true);
    expect(isLikeButNotTaste('Like honestly vinyl')).toBe(true);
    expect(isLikeButNotTaste('Lots of love, Nadia')).toBe(true);
    expect(isLikeButNotTaste('Memory like a goldfish')).toBe(true);
    expect(described('porridge every morning, like an old man')).toEqual([]);
  });
  it('keeps tastes with a dropped subject or a stated one', () => {
    expect(isLikeButNotTaste('love sushi')).toBe(false);
    expect(described('Love sushi!')).toContain('user likes sushi');
    expect(described('I like a challenge')).toContain('user likes challenge');
  });
});
