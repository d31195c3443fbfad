import { describe, expect, it } from 'vitest';
import { employmentFacts } from './employment.js';

const ref = new Date('2024-06-15T12:00:00Z');
const shown = (sentence: string) => employmentFacts(sentence, ref).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object} ${f.tense}`);

describe('employment named by a noun', () => {
  it('reads the employer after job, role, offer or internship, and a title before role or position', () => {
    expect(shown('finally got the job at the garden centre')).toEqual(['works_at garden centre current']);
    expect(shown('I took a sous chef position at Dishoom')).toEqual(['works_at Dishoom current', 'job_title sous chef current']);
    expect(shown('I quit my job at Greggs yesterday')).toEqual(['NOT works_at Greggs current']);
    expect(shown('landed a research internship with Arm')).toEqual(['works_at Arm current']);
  });

  it('plans a job that starts on a coming date and ends one that is left or lost', () => {
    const [planned] = employmentFacts('starting the new role at Ocado on 1 August', ref);
    expect([planned.tense, planned.validFrom?.toISOString().slice(0, 10)]).toEqual(['planned', '2024-08-01']);
    expect(shown('my contract with Sky ended last week')).toEqual(['NOT works_at Sky current']);
    expect(shown('I turned down the offer from Deliveroo')).toEqual(['NOT works_at Deliveroo current']);
  });

  it('reads a stretch of years at an organisation as working there', () => {
    expect(shown("I've been at Unilever for nine years")).toEqual(['works_at Unilever current']);
  });

  it('leaves other people’s jobs to the clause parser', () => {
    expect(shown('my brother just got a job at Tesco')).toEqual([]);
    expect(shown('Priya landed an internship at Deloitte')).toEqual([]);
  });
});
