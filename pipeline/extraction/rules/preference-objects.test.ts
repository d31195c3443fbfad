import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { cleanTasteObject } from './preference-objects.js';

describe('taste objects are things, not the rest of the sentence', () => {
  it('ends the noun phrase at adjuncts, new clauses and degree words', () => {
    expect(cleanTasteObject('birdwatching during the pandemic')).toBe('birdwatching');
    expect(cleanTasteObject('bass in a cover band')).toBe('bass');
    expect(cleanTasteObject('coriander it tastes like soap')).toBe('coriander');
    expect(cleanTasteObject('new manager better')).toBe('new manager');
    expect(cleanTasteObject('always espresso')).toBe('espresso');
  });

  it('keeps titles whole and decades as written', () => {
    expect(cleanTasteObject('Lord of the Rings')).toBe('Lord of the Rings');
    expect(cleanTasteObject('80s synth-pop')).toBe('80s synth-pop');
  });

  it('drops numbers, amounts and bare light-verb gerunds', () => {
    expect(cleanTasteObject('25')).toBeUndefined();
    expect(cleanTasteObject('15 kids')).toBeUndefined();
    expect(cleanTasteObject('45k a year')).toBeUndefined();
    expect(cleanTasteObject('playing')).toBeUndefined();
    expect(cleanTasteObject('getting up')).toBeUndefined();
    expect(cleanTasteObject('living there')).toBeUndefined();
    expect(cleanTasteObject('hiking')).toBe('hiking');
  });
});

describe('tastes named by a person noun', () => {
  const shown = (content: string) =>
    extractFactsWithRules({ content, referenceTime: new Date('2024-06-15T12:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);
  it('reads "a X nerd/lover/person" as a taste, denied as a dislike, but not an adjective', () => {
    expect(shown("I'm a huge Star Wars nerd")).toEqual(['likes Star Wars']);
    expect(shown("I'm not really a beach person")).toEqual(['dislikes beach']);
    expect(shown('I am not a careful person')).toEqual([]);
  });
});
