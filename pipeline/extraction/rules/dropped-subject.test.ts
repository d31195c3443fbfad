import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const shown = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-15T12:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('chat that drops "I" and the auxiliary', () => {
  it('reads a leading gerund, "been" or predicate adjective as the writer speaking', () => {
    expect(shown('going to Marrakech for my 40th in October')).toEqual(['user trip_to Marrakech']);
    expect(shown('been to Japan twice and it still blows my mind')).toEqual(['user visited Japan']);
    expect(shown('obsessed with Taskmaster at the minute')).toEqual(['user likes Taskmaster']);
    expect(shown('not a fan of sushi tbh')).toEqual(['user dislikes sushi']);
  });

  it('leaves clauses alone that do not continue with a taxonomy verb', () => {
    expect(shown('a lot of people think so')).toEqual([]);
    expect(shown('going home now, knackered')).toEqual([]);
  });
});

describe('"going to" followed by a verb is a plan, not a trip', () => {
  it('finds no trip in "going to vomit" but keeps real places, also lower case', () => {
    expect(shown('I have to give a speech. I am going to vomit')).toEqual([]);
    expect(shown("I'm just going to sit here and complain")).toEqual([]);
    expect(shown('going to the lake district in August')).toEqual(['user trip_to lake district']);
  });
});
