import { describe, expect, it } from 'vitest';
import { PREDICATE_FAMILIES } from '../types.js';
import {
  PREDICATES,
  candidatePredicates,
  canonicalizeVerb,
  familyOf,
  isKnownPredicate,
  isSingleValued,
  lookupPredicate,
  oppositeOf,
  resolveSurface,
  toPredicateName,
} from './taxonomy.js';

describe('taxonomy', () => {
  it('has about fifty snake_case predicates spread over all nine families', () => {
    expect(PREDICATES.length).toBeGreaterThanOrEqual(50);
    expect(new Set(PREDICATES.map((p) => p.name)).size).toBe(PREDICATES.length);
    for (const p of PREDICATES) expect(p.name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(new Set(PREDICATES.map((p) => p.family))).toEqual(new Set(PREDICATE_FAMILIES));
  });

  it('keeps opposites symmetric and pointing at real predicates', () => {
    for (const p of PREDICATES.filter((x) => x.opposite)) {
      expect(lookupPredicate(p.opposite!), p.name).toBeDefined();
      expect(oppositeOf(p.opposite!)).toBe(p.name);
    }
    expect(oppositeOf('likes')).toBe('dislikes');
    expect(oppositeOf('married_to')).toBe('divorced_from');
    expect(oppositeOf('lives_in')).toBeUndefined();
  });

  it('looks up predicates and their families; unknown predicates are "other"', () => {
    expect(lookupPredicate('lives_in')).toMatchObject({ family: 'places', cardinality: 'single' });
    expect(lookupPredicate('nope')).toBeUndefined();
    expect(familyOf('works_at')).toBe('work');
    expect(familyOf('allergic_to')).toBe('health');
    expect(familyOf('salary')).toBe('financial');
    expect(familyOf('has_pet')).toBe('ownership');
    expect(familyOf('birthday')).toBe('events');
    expect(familyOf('has_sister')).toBe('people');
    expect(familyOf('likes')).toBe('preferences');
    expect(familyOf('speaks')).toBe('other');
    expect(familyOf('collects_stamps')).toBe('other');
  });

  it('treats any favorite_<category> as a single-valued preference', () => {
    expect(familyOf('favorite_board_game')).toBe('preferences');
    expect(isSingleValued('favorite_board_game')).toBe(true);
    expect(isKnownPredicate('favorite_board_game')).toBe(true);
  });

  it('knows cardinality; unknown predicates are multi-valued so they never invalidate on a different object', () => {
    for (const single of ['lives_in', 'works_at', 'age', 'married_to', 'salary', 'job_title', 'birthday', 'favorite_color']) expect(isSingleValued(single), single).toBe(true);
    for (const multi of ['likes', 'owns', 'speaks', 'has_pet', 'allergic_to', 'visited']) expect(isSingleValued(multi), multi).toBe(false);
    expect(isSingleValued('collects_stamps')).toBe(false);
  });

  it('returns the predicate plus its opposite as stage-1 candidates', () => {
    expect(candidatePredicates('likes')).toEqual(['likes', 'dislikes']);
    expect(candidatePredicates('dislikes')).toEqual(['dislikes', 'likes']);
    expect(candidatePredicates('lives_in')).toEqual(['lives_in']);
    expect(candidatePredicates('collects_stamps')).toEqual(['collects_stamps']);
  });

  it('canonicalises surface verb phrases in any tense', () => {
    expect(canonicalizeVerb('lives in')).toBe('lives_in');
    expect(canonicalizeVerb('moved to')).toBe('lives_in');
    expect(canonicalizeVerb('relocated to')).toBe('lives_in');
    expect(canonicalizeVerb('is based in')).toBe('lives_in');
    expect(canonicalizeVerb("I'm based in")).toBe('lives_in');
    expect(canonicalizeVerb('has moved to')).toBe('lives_in');
    expect(canonicalizeVerb('works for')).toBe('works_at');
    expect(canonicalizeVerb('got married to')).toBe('married_to');
    expect(canonicalizeVerb("can't stand")).toBe('dislikes');
    expect(canonicalizeVerb('is allergic to')).toBe('allergic_to');
    expect(canonicalizeVerb('was born in')).toBe('born_in');
    expect(canonicalizeVerb('has been to')).toBe('visited');
    expect(canonicalizeVerb('juggles')).toBeNull();
  });

  it('tells which surfaces end a relation', () => {
    expect(resolveSurface('sold')).toMatchObject({ predicate: 'owns', surface: { aspect: 'end' } });
    expect(resolveSurface('moved out of')).toMatchObject({ predicate: 'lives_in', surface: { aspect: 'end' } });
    expect(resolveSurface('moved to')).toMatchObject({ predicate: 'lives_in', surface: { aspect: 'onset' } });
  });

  it('turns arbitrary verb phrases into snake_case names', () => {
    expect(toPredicateName('Collects stamps')).toBe('collects_stamps');
    expect(toPredicateName("doesn't trust")).toBe('does_not_trust');
    expect(toPredicateName('  ')).toBe('related_to');
  });
});
