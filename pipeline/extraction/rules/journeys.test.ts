import { describe, expect, it } from 'vitest';
import { journeyFacts } from './journeys.js';

const ref = new Date('2024-06-15T12:00:00Z');
const shown = (sentence: string) => journeyFacts(sentence, ref).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.tense}`);

describe('trips named by a journey noun', () => {
  it('reads the destination after the noun or before it', () => {
    expect(shown('we booked a cruise around the Norwegian Fjords')).toEqual(['trip_to Norwegian Fjords planned']);
    expect(shown('still sorting the Lisbon getaway with my partner')).toEqual(['trip_to Lisbon planned']);
    expect(shown('looking forward to a vacation in mexico')).toEqual(['trip_to mexico planned']);
  });

  it('dates a plan from a coming date in the sentence', () => {
    const [fact] = journeyFacts('honeymoon to Mauritius on 3 September', ref);
    expect(fact.validFrom?.toISOString().slice(0, 10)).toBe('2024-09-03');
  });

  it('reads a trip taken as a visit and a trip called off as a denied plan', () => {
    expect(shown('we took a long weekend trip to Porto in March')).toEqual(['visited Porto past']);
    expect(shown('the Vienna trip got called off, the venue flooded')).toEqual(['NOT trip_to Vienna current']);
  });

  it('leaves out other people’s trips, dates and verbs that look like names', () => {
    expect(shown("my brother's trip to Peru was a disaster")).toEqual([]);
    expect(shown('the Christmas holiday was quiet')).toEqual([]);
    expect(shown('Booked flights! Family holiday sorted.')).toEqual([]);
    expect(shown('a trip to the dentist on Monday')).toEqual([]);
    expect(shown('move the Oslo trip to my work calendar')).toEqual([]);
    expect(shown("I'm saving up for a holiday in Goa")).toEqual([]);
  });
});
