import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.tense}`);

describe('a period of life that dates what follows', () => {
  it('leaves a past fact, not nothing', () => {
    expect(described('When I was little we had a tortoise called Shelly')).toEqual(['has_pet tortoise (Shelly) past']);
    expect(described('back when I was at uni I played hockey')).toEqual(['plays hockey past']);
    expect(described('Growing up, I had a pony')).toEqual(['has_pet pony past']);
  });
  it('never turns the lead-in into a fact of its own', () => {
    expect(described('As a kid I was always outside')).toEqual([]);
  });
});

describe('a denial of the whole kind', () => {
  it('ends every pet, whatever it was called', () => {
    expect(described("no pets at the moment, we're renting")).toEqual(['NOT has_pet * current']);
    expect(described("We don't have any pets any more")).toEqual(['NOT has_pet * current']);
  });
  it('still names the one pet a denial names', () => {
    expect(described("we don't have the rabbit any more")).toEqual(['NOT has_pet rabbit current']);
  });
});
