import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const read = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-04T10:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.validFrom?.toISOString().slice(0, 10) ?? '-'}`);

describe('events noted in chat shorthand', () => {
  it('an appointment noted without a verb, even with a request tacked on', () => {
    expect(read('optician on march 19 at 2pm, can you remind me')).toContain('has_appointment optician appointment 2024-03-19');
    expect(read('booked a dental check-up on 2 April')).toEqual([expect.stringMatching(/^has_appointment dental check-up 2024-04-02/)]);
  });

  it('a provider moving or cancelling the appointment', () => {
    expect(read('physio called, they have moved me to the 21st of march')).toContain('has_appointment physio appointment 2024-03-21');
    expect(read('The surgery cancelled my blood test appointment, will rebook')).toEqual([expect.stringMatching(/^NOT has_appointment blood test appointment/)]);
  });

  it('a trip noted as a noun phrase, a booking with dates, an own cancellation', () => {
    expect(read('lisbon trip next month!!')).toEqual([expect.stringMatching(/^trip_to Lisbon 2024-04/)]);
    expect(read('okay booked it, Porto June 3 to 9')).toContain('trip_to Porto 2024-06-03');
    expect(read('had to cancel the Porto trip, work is mad')).toEqual([expect.stringMatching(/^NOT trip_to Porto/)]);
  });

  it('a request to the assistant to cancel something is not the user cancelling it', () => {
    expect(read('cancel the reminder about the Porto trip')).toEqual([]);
    expect(read('road trip next month')).toEqual([]);
  });

  it('an appointment named by whom it is with', () => {
    expect(read('my appointment with the podiatrist is on 12 March')).toContain('has_appointment podiatrist appointment 2024-03-12');
  });

  it('"His"/"Her" opening a sentence of an agent note is the user\'s', () => {
    expect(read('The user works nights. Her brother lives in Derby.')).toContain("lives_in Derby -");
    expect(extractFactsWithRules({ content: 'The user works nights. Her brother lives in Derby.', referenceTime: new Date('2024-03-04T10:00:00Z') }).find((f) => f.predicate === 'lives_in')?.subject).toBe("user's brother");
  });
});
