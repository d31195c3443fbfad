import { describe, expect, it } from 'vitest';
import { mentionedRelatives } from './relatives.js';

const shown = (sentence: string) => mentionedRelatives(sentence).map((r) => `${r.negated ? 'NOT ' : ''}${r.predicate} ${r.name}`);

describe('relatives named without "my", as notes write them', () => {
  it('reads a bare relation noun and name after a preposition, verb, count or comma', () => {
    expect(shown('Booked the dentist for daughter Imogen (9).')).toEqual(['has_daughter Imogen']);
    expect(shown('Told sister Paula about the flights.')).toEqual(['has_sister Paula']);
    expect(shown('Widowed, one son, Callum, lives nearby.')).toEqual(['has_son Callum']);
  });

  it('leaves relation nouns that belong to someone else’s noun phrase', () => {
    expect(shown("Anita's husband Raj is a pilot")).toEqual([]);
    expect(shown('The hiring manager, Wendy, was friendly')).toEqual([]);
    expect(shown('His girlfriend Nadia cooked')).toEqual([]);
  });

  it('does not name a current partner while the partnership ends', () => {
    expect(shown('Separated from husband Gary in March; son Theo lives with her.')).toEqual(['has_son Theo']);
  });
});
