import { describe, expect, it } from 'vitest';
import { classesBySense, isKindOf } from './noun-classes.js';
import { isPossessionNoun, wordnetPetKind } from './rules/noun-kinds.js';

describe('noun classes from WordNet', () => {
  it('walks the hypernyms of each sense', () => {
    const [dog] = classesBySense('dog', 1);
    expect(dog.has('animal')).toBe(true);
    expect(classesBySense('hot tub', 1)[0].has('artifact')).toBe(true);
    expect(classesBySense('qwzxv')).toEqual([]);
  });

  it('counts an ambiguous noun only when its common senses agree', () => {
    expect(isKindOf('laptop', ['computer'])).toBe(true);
    // "gig" is first a carriage, then a job: not a possession.
    expect(isKindOf('gig', ['conveyance'])).toBe(false);
  });

  it('gives the extractor possessions and pets its own lists do not name', () => {
    expect(isPossessionNoun('a second-hand ukulele')).toBe(true);
    expect(isPossessionNoun('trampolines')).toBe(true);
    expect(isPossessionNoun('side gig')).toBe(false);
    expect(wordnetPetKind('a grumpy bulldog')).toBe('bulldog');
    expect(wordnetPetKind('charger')).toBeUndefined();
    expect(wordnetPetKind('chicken for dinner')).toBeUndefined();
  });
});
