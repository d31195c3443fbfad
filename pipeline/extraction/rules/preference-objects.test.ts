import { describe, expect, it } from 'vitest';
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
