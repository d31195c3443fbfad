import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const ages = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-15T12:00:00Z') })
    .filter((f) => f.predicate === 'age' || f.predicate === 'name')
    .map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('ages as people write them', () => {
  it('reads stated, parenthesised and note-style ages for the user and named people', () => {
    expect(ages("I'm 33 and single, my mom will not let it go")).toEqual(['user age 33']);
    expect(ages('my daughter Freya is 14 and thinks I am embarrassing')).toEqual(['Freya age 14']);
    expect(ages('got three kids: Ella (12), Max (9)')).toEqual(['Ella age 12', 'Max age 9']);
    expect(ages('User (45) is learning the cello.')).toEqual(['user age 45']);
    expect(ages('Patient chart: 52yo male, HTN.')).toEqual(['user age 52']);
  });

  it('keeps the current age when a birthday is ahead', () => {
    expect(ages('my son Leo turns 6 on the 30th')).toEqual(['Leo age 5']);
    expect(ages('turnin 50 next month and i feel about 19')).toEqual(['user age 49']);
    expect(ages('Gran turned 90 yesterday!!')).toEqual(['Gran age 90']);
  });

  it('takes the affirmed age over a denied one, and the name of a writer who introduces themself', () => {
    expect(ages("I'm not 25 lol I'm 52")).toEqual(['user age 52']);
    expect(ages('im Jess, 23, and i have no idea what im doing')).toEqual(['user age 23', 'user name Jess']);
  });

  it('ignores numbers that are not ages', () => {
    expect(ages('I am 5 minutes away')).toEqual([]);
    expect(ages('I want to write a novel before I am 40')).toEqual([]);
    expect(ages('the Land Rover is 22 years old')).toEqual([]);
    expect(ages('User lived in Austin (8 yrs), Portland (3), now Pittsburgh.')).toEqual([]);
    expect(ages("I'm 1.85 m tall")).toEqual([]);
    expect(ages('my son is 1,20 m now')).toEqual([]);
    expect(ages('I am 34. Still single.')).toEqual(['user age 34']);
  });
});
