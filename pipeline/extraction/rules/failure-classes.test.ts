import { describe, expect, it } from 'vitest';
import type { ExtractedFact } from '../../types.js';
import { extractFactsWithRules } from './fact-extractor.js';

/**
 * One test per failure class listed in issue 8, written for this file (not taken from any corpus).
 * Each asserts the facts a user would expect to be remembered, with clean objects.
 */
const ref = new Date('2024-06-15T12:00:00Z');
const facts = (content: string) => extractFactsWithRules({ content, referenceTime: ref });
const show = (f: ExtractedFact) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`;
const shown = (content: string) => facts(content).map(show);
const day = (f: ExtractedFact | undefined) => f?.validFrom?.toISOString().slice(0, 10);

describe('failure classes of issue 8', () => {
  it('occupations and employers in ordinary phrasing', () => {
    expect(shown('I do night shifts as a nurse at the Royal Infirmary')).toEqual(expect.arrayContaining(['user job_title nurse', 'user works_at Royal Infirmary']));
    expect(shown('I quit my job at Lidl yesterday')).toEqual(['user NOT works_at Lidl']);
    expect(shown('I was laid off from Vodafone in March')).toEqual(['user NOT works_at Vodafone']);
    expect(shown("I'm a qualified electrician")).toEqual(['user job_title electrician']);
    const before = facts('Before Arup I worked at Atkins for six years');
    expect(before.map(show)).toEqual(['user works_at Atkins']);
    expect(before[0].tense).toBe('past');
    expect(shown('The user is a backend dev at Stripe.')).toEqual(['user job_title backend dev', 'user works_at Stripe']);
  });

  it('possessions and pets named by brand, model or name', () => {
    expect(shown('My phone is a Galaxy S23')).toEqual(['user owns Galaxy S23']);
    expect(shown('Our family car is a 2015 Skoda Octavia')).toEqual(['user owns Skoda Octavia', 'user drives Skoda Octavia']);
    expect(shown('We adopted a border collie named Juno')).toEqual(['user has_pet border collie (Juno)']);
    expect(shown('I have two rabbits, Bean and Toast')).toEqual(['user has_pet rabbit']);
    expect(shown('Sold my old Civic and bought a used F-150.')).toEqual(['user NOT owns Civic', 'user owns F-150']);
  });

  it('health: allergies, conditions, medication and dose, and a switch from one drug to another', () => {
    expect(shown("I'm allergic to shellfish")).toEqual(['user allergic_to shellfish']);
    expect(shown('The user has a peanut allergy.')).toEqual(['user allergic_to peanuts']);
    expect(shown('I take 75mcg levothyroxine every morning')).toEqual(['user takes_medication levothyroxine 75mcg']);
    expect(shown('The doctor switched me from ramipril to losartan 50mg')).toEqual(['user takes_medication losartan 50mg', 'user NOT takes_medication ramipril']);
  });

  it('money in many forms, as written, so updates compare', () => {
    expect(shown('I earn 58,000 euros a year')).toEqual(['user salary 58,000 euros a year']);
    expect(shown('I make about 40 grand')).toEqual(['user salary 40 grand']);
    expect(shown('My salary is $61.5k')).toEqual(['user salary $61.5k']);
    expect(shown('Our rent is 1,400 a month')).toEqual(['user pays_rent 1,400 a month']);
    expect(shown("I've got about $9k left on my car loan")).toEqual(['user has_loan car loan']);
  });

  it('events with dates, and their changes: moved, cancelled', () => {
    const wedding = facts("My brother's wedding is on 12 October");
    expect(wedding.map(show)).toEqual(["user attending brother's wedding"]);
    expect(wedding[0].tense).toBe('planned');
    expect(day(wedding[0])).toBe('2024-10-12');
    const moved = facts('the job interview got moved to thursday');
    expect(moved.map(show)).toEqual(['user has_appointment job interview']);
    expect(day(moved[0])).toBe('2024-06-20');
    expect(shown("Lisbon trip's off, the flights got cancelled")).toEqual(['user NOT trip_to Lisbon']);
    expect(shown("I can't go to Omar's wedding anymore")).toEqual(["user NOT attending Omar's wedding"]);
  });

  it('preferences with negation and change over time', () => {
    expect(shown('I no longer eat meat')).toEqual(['user NOT eats meat']);
    expect(shown("I'm not into techno any more")).toEqual(['user NOT likes techno']);
    expect(shown('I used to love board games')).toEqual(['user NOT likes board games']);
  });

  it('relationships starting and ending', () => {
    expect(shown("I'm engaged to Priya")).toEqual(['user partner Priya']);
    expect(shown('We broke up last week')).toEqual(['user NOT partner *']);
    expect(shown("I'm single")).toEqual(['user NOT partner *']);
  });

  it('tense and time: a planned move keeps a clean object and takes its date; a past home is dated', () => {
    const plan = facts("We're moving to Halifax next spring for my wife's job");
    expect(plan.map(show)).toEqual(['user lives_in Halifax']);
    expect(plan[0].tense).toBe('planned');
    expect(day(plan[0])).toBe('2025-03-01');
    const past = facts('In 2016 I lived in Valencia');
    expect(past.map(show)).toEqual(['user lives_in Valencia']);
    expect(past[0].tense).toBe('past');
    expect(day(past[0])).toBe('2016-01-01');
    // A completed change is never dated ahead of the statement.
    expect(day(facts('I started at Monzo on Monday')[0])).toBe('2024-06-10');
  });

  it('background clauses state nothing: "when I was 9" is no age', () => {
    expect(shown('I moved to Leeds when I was 9')).toEqual(['user lives_in Leeds']);
  });
});
