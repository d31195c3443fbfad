import { describe, expect, it } from 'vitest';
import { membershipFacts } from './memberships.js';

const shown = (sentence: string) => membershipFacts(sentence).map((f) => `${f.negated ? 'NOT ' : ''}${f.object} ${f.tense}`);

describe('belonging to a group said by being or playing in it', () => {
  it('reads groups WordNet files under organisation or musical organisation', () => {
    expect(shown('I am in a gospel choir and the residents committee')).toEqual(['gospel choir current', 'residents committee current']);
    expect(shown('we play in a Sunday league on the common')).toEqual(['league current']);
    expect(shown('I sing in a ska band called The Loose Ends')).toEqual(['ska band current']);
  });

  it('reads an ended or past membership', () => {
    expect(shown('I am no longer in the Oxford Union')).toEqual(['NOT Oxford Union current']);
    expect(shown('I was in a brass band as a teenager')).toEqual(['brass band past']);
  });

  it('leaves out places, gatherings, schools, churches and families', () => {
    expect(shown('I am in a meeting till four')).toEqual([]);
    expect(shown('I am in the hospital with my dad')).toEqual([]);
    expect(shown('I am in a big family')).toEqual([]);
    expect(shown('we are in a lovely church in Bath')).toEqual([]);
    expect(shown('I am in a school near Leeds')).toEqual([]);
  });
});
