import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { wishedPlaces } from './wishes.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-01T00:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('wishes to go somewhere', () => {
  it('are wants_to_visit, one fact per place', () => {
    expect(described('my dream is visit Lisbon and Porto')).toEqual(['user wants_to_visit Lisbon', 'user wants_to_visit Porto']);
    expect(wishedPlaces('go back to Japan')).toEqual({ places: ['Japan'], tripOnly: true });
  });
  it('keep the aim when the trip is part of something else', () => {
    expect(wishedPlaces('take my dad to Rome')).toEqual({ places: ['Rome'], tripOnly: false });
  });
  it('leave moves, sights and lowercase aims alone', () => {
    expect(wishedPlaces('move to Spain')).toBeUndefined();
    expect(wishedPlaces('go to the gym more')).toBeUndefined();
  });
  it('drop the deadline from an aim', () => {
    expect(described('I want to learn to knit by Christmas')).toContain('user wants_to learn to knit');
  });
});

describe('wishes as chat writes them, and their fulfilment', () => {
  const facts = (content: string) => described(content);
  it('read "dying/desperate/itching to go" as a wish, one per place named', () => {
    expect(facts('itching to get to Chile and Bolivia at some point')).toEqual(['user wants_to_visit Chile', 'user wants_to_visit Bolivia']);
    expect(facts("I'm desperate to visit Oaxaca")).toEqual(['user wants_to_visit Oaxaca']);
  });
  it('read a bucket list as wishes', () => {
    expect(facts('just added Iceland to my bucket list')).toEqual(['user wants_to_visit Iceland']);
    expect(facts('Namibia is at the top of my bucket list')).toEqual(['user wants_to_visit Namibia']);
  });
  it('read a ticked-off place as a visit', () => {
    expect(facts('Crossed Vietnam off the list last month!')).toEqual(['user visited Vietnam']);
    expect(facts('finally made it to Machu Picchu')).toEqual(['user visited Machu Picchu']);
  });
  it('keep a place and its country as one wish', () => {
    expect(facts('I would love to visit Porto, Portugal')).toEqual(['user wants_to_visit Porto']);
  });
});
