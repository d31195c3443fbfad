import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const at = new Date('2024-03-10T09:00:00Z');
const described = (content: string, referenceTime = at) =>
  extractFactsWithRules({ content, referenceTime }).map(
    (f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.tense} ${f.validFrom?.toISOString().slice(0, 10) ?? '-'}`,
  );

describe('trips planned as things', () => {
  it('are trips to the place, dated when the plan says when', () => {
    expect(described('Note: the user is organising a girls\' weekend to Porto on 12 May 2024.')).toContain('user trip_to Porto planned 2024-05-12');
    expect(described("we've booked a fortnight in Sardinia for June")).toContain('user trip_to Sardinia planned 2024-06-01');
  });
});

describe('journeys made for an event', () => {
  it('are a trip and attending the event, both on the stated date', () => {
    const facts = described('Flying to Lyon for the Fête des Lumières on 8 December');
    expect(facts).toContain('user trip_to Lyon planned 2024-12-08');
    expect(facts).toContain('user attending Fête des Lumières planned 2024-12-08');
  });
  it('deny only the journey when it is off', () => {
    const facts = described('The user is no longer driving to Leeds for the Harrogate show.');
    expect(facts.some((f) => f.startsWith('user NOT trip_to Leeds'))).toBe(true);
    expect(facts.filter((f) => f.includes('attending'))).toEqual([]);
  });
  it('leave reasons that are no event alone', () => {
    expect(described("I'm heading to Cork for Christmas").filter((f) => f.includes('attending'))).toEqual([]);
    expect(described('off to Madrid for a conference next week').filter((f) => f.includes('attending'))).toEqual([]);
  });
});

describe('a plan dated elsewhere in the message', () => {
  it('takes the only future date the message names', () => {
    expect(described('we are adopting a kitten! collecting him on the 2nd of April')).toContain('user has_pet kitten planned 2024-04-02');
    expect(described('The venue changed to 20 April; the user is still going to Bath.')).toContain('user trip_to Bath planned 2024-04-20');
  });
  it('never takes a date another kind of fact used', () => {
    expect(described("We're moving to Norwich! My birthday is on 2 June, by the way")).toContain('user lives_in Norwich planned -');
  });
  it('stays undated when the message names several dates', () => {
    expect(described("I'm moving to Galway. Viewing on the 2nd of April, keys on the 30th of April")).toContain('user lives_in Galway planned -');
  });
});

describe('endings of plans', () => {
  it('read "no longer" before a progressive as a denial', () => {
    expect(described("I'm no longer flying to Oslo")).toEqual(['user NOT trip_to Oslo current -']);
  });
});

describe('events moved or called off', () => {
  it('take the new date when the old one is named too', () => {
    expect(described('the street party was pushed back from April to 8 June')).toContain('user attending street party planned 2024-06-08');
  });
  it('keep a place named in two words whole, without the verb after it', () => {
    expect(described('trip to San Sebastian is off')).toEqual(['user NOT trip_to San Sebastian current -']);
    expect(described('the trip to Rome is off, work got in the way')).toContain('user NOT trip_to Rome current -');
  });
});
