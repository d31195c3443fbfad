import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const read = (content: string) => extractFactsWithRules({ content, referenceTime: new Date('2024-05-02T10:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('chat phrasings of an update', () => {
  it('an interjection set off by punctuation does not hide the statement', () => {
    expect(read('Weirdly enough - no. Honestly, my favourite band is Wet Leg these days')).toContain('favorite_music Wet Leg');
    expect(read('big news: I live in Cardiff now')).toContain('lives_in Cardiff');
  });

  it('a new favourite given as a label is a favourite', () => {
    expect(read('so new favourite film: Past Lives. cried twice')).toContain('favorite_movie Past Lives');
  });

  it('a favourite with a dropped "my" and "has always been"', () => {
    expect(read("favourite season's always been autumn")).toContain('favorite_season autumn');
  });

  it('the new name after taking a spouse\'s name', () => {
    expect(read("heads up, I've taken my wife's surname so it is Jordan Okafor now")).toContain('name Jordan Okafor');
  });
});
