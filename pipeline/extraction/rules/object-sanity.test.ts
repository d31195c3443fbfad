import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { cleanObject } from './object-sanity.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-01T00:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('object sanity', () => {
  it('drops modals, auxiliaries, adverbs and time units that are left as objects', () => {
    expect(cleanObject('married_to', 'might')).toBeUndefined();
    expect(cleanObject('has_brother', 'will')).toBeUndefined();
    expect(cleanObject('studies', 'hard')).toBeUndefined();
    expect(cleanObject('eats', 'way')).toBeUndefined();
    expect(cleanObject('plays', 'day')).toBeUndefined();
    expect(cleanObject('divorced_from', 'finalized')).toBeUndefined();
    expect(cleanObject('member_of', 'falling')).toBeUndefined();
  });

  it('keeps real one-word objects, gerund hobbies and literal values', () => {
    expect(cleanObject('studies', 'nursing')).toBe('nursing');
    expect(cleanObject('saving_for', 'wedding')).toBe('wedding');
    expect(cleanObject('hobby', 'running')).toBe('running');
    expect(cleanObject('age', '14')).toBe('14');
    expect(cleanObject('owns', 'MacBook')).toBe('MacBook');
  });

  it('rejects coordinated or negated remnants and clauses read as noun phrases', () => {
    expect(cleanObject('likes', 'and self-respect')).toBeUndefined();
    expect(cleanObject('prefers', 'not say')).toBeUndefined();
    expect(cleanObject('member_of', "handicap's 9")).toBeUndefined();
  });

  it('rejects wishes and tastes whose object points elsewhere with a pronoun', () => {
    expect(cleanObject('wants_to', 'give it back to the community')).toBeUndefined();
    expect(cleanObject('wants_to', 'help make their day')).toBeUndefined();
    expect(cleanObject('wants_to', 'learn Portuguese')).toBe('learn Portuguese');
  });

  it('trims leading adverbs, amount leftovers and cut-off or clausal tails', () => {
    expect(cleanObject('uses', 'usually the red inhaler')).toBe('red inhaler');
    expect(cleanObject('has_loan', 'grand car loan')).toBe('car loan');
    expect(cleanObject('eats', 'porridge for a')).toBe('porridge');
    expect(cleanObject('wants_to', 'learn to sail at some point')).toBe('learn to sail');
    expect(cleanObject('owns', "Dell XPS and it's falling apart")).toBe('Dell XPS');
  });

  it('applies to whole sentences', () => {
    expect(described('maybe, my wife might get a job in Leeds. nothing decided').join(';')).not.toMatch(/married_to might/);
    expect(described('my phone is a Pixel 6 and its battery is shot')).not.toContain('user owns Pixel 6 and its battery is shot');
  });
});

describe('object sanity, second round', () => {
  it('drops the recipient of a double object, contrasts after the thing, passives and employment statuses', () => {
    expect(cleanObject('owns', 'our kids a paddling pool')).toBe('paddling pool');
    expect(cleanObject('has_condition', 'lactose intolerance not an allergy')).toBe('lactose intolerance');
    expect(cleanObject('works_at', 'bought by Amazon')).toBeUndefined();
    expect(cleanObject('job_title', 'self-employed')).toBeUndefined();
    expect(cleanObject('job_title', 'paramedic')).toBe('paramedic');
    expect(cleanObject('job_title', 'retired')).toBe('retired');
  });
  it('reads "Name\'s got" as the name having something', () => {
    expect(described("my daughter Isla's got eczema").some((f) => f.startsWith('Isla '))).toBe(true);
  });
});

describe('object sanity, tastes, allergens and idioms', () => {
  it('drops praise from a taste and names countable allergens in the plural', () => {
    expect(cleanObject('favorite_food', 'proper fish and chips')).toBe('fish and chips');
    expect(cleanObject('likes', 'good coffee')).toBe('coffee');
    expect(cleanObject('owns', 'good camera')).toBe('good camera');
    expect(cleanObject('allergic_to', 'egg')).toBe('eggs');
    expect(cleanObject('allergic_to', 'strawberry')).toBe('strawberries');
    expect(cleanObject('allergic_to', 'penicillin')).toBe('penicillin');
  });
  it('does not read "in shape" or "in love" as a home', () => {
    expect(cleanObject('lives_in', 'shape')).toBeUndefined();
    expect(cleanObject('lives_in', 'Shrewsbury')).toBe('Shrewsbury');
  });
});

describe('object sanity, vague heads', () => {
  it('drops "thing"/"stuff" objects and an unnamed school', () => {
    expect(cleanObject('subscribes_to', 'the Lisbon thing')).toBeUndefined();
    expect(cleanObject('uses', 'eco stuff')).toBeUndefined();
    expect(cleanObject('studies_at', 'school')).toBeUndefined();
    expect(cleanObject('studies_at', 'King’s College London')).toBe('King’s College London');
  });
});

describe('object sanity, years in words', () => {
  it('drops a spelled-out year before the place', () => {
    expect(cleanObject('born_in', 'nineteen eighty four in leeds')).toBe('leeds');
    expect(cleanObject('born_in', 'Leeds')).toBe('Leeds');
  });
});
