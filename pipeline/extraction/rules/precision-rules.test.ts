import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-01T00:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('denied interest', () => {
  it('reads "not (really) into X" as no longer liking X, not as a dislike', () => {
    expect(described('honestly not that into crossfit')).toContain('user NOT likes crossfit');
    expect(described("I'm not really into jazz these days")).toContain('user NOT likes jazz');
  });
  it('keeps outright dislikes as dislikes', () => {
    expect(described("I don't like mushrooms")).toContain('user dislikes mushrooms');
  });
});

describe('role nouns in forms and case notes', () => {
  it('reads a capitalised role at the start of a note as the user', () => {
    expect(described('Intake note: Patient currently lives in Dayton OH.')).toContain('user lives_in Dayton OH');
    expect(described('Borrower owns a 2015 Subaru Outback.').some((f) => f.startsWith('user owns'))).toBe(true);
  });
  it('leaves a role noun alone when no verb follows it', () => {
    expect(described('Tenant screening takes forever').some((f) => f.startsWith('user '))).toBe(false);
  });
});

describe('ability to use a tool', () => {
  it('is a skill rather than a habit', () => {
    expect(described('I can use Figma and Illustrator')).toEqual(expect.arrayContaining(['user has_skill Figma', 'user has_skill Illustrator']));
    expect(described('I use Obsidian for notes')).toContain('user uses Obsidian');
  });
});
