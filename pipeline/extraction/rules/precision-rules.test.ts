import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { cleanObject } from './object-sanity.js';

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

describe('leaving a city', () => {
  it('is about where the user lives, not an employer', () => {
    expect(described('we left Leeds in 2019 and moved to York')).toContain('user lives_in Leeds');
    expect(described('we left Leeds in 2019 and moved to York').join(';')).not.toMatch(/works_at/);
    expect(described("I'm not leaving Lisbon")).toContain('user lives_in Lisbon');
  });
  it('still ends a job at a company', () => {
    expect(described('I left Google in May')).toContain('user NOT works_at Google');
  });
});

describe('getting into something', () => {
  it('is an admission to a school when the clause is about studying', () => {
    expect(described('my brother Sam got into Stanford for his PhD')).toContain('Sam studies_at Stanford');
  });
  it('is a pastime when it is an activity', () => {
    expect(described('been getting into knitting lately')).toContain('user hobby knitting');
  });
});

describe('switching to a drink', () => {
  it('is drinking it', () => {
    expect(described('switched to oat milk lattes before 10am')).toContain('user drinks oat milk lattes');
  });
});

describe('parents as a pair', () => {
  it('gives each parent the fact, and the parents retiring somewhere live there', () => {
    expect(described('my parents live in Galway')).toEqual(expect.arrayContaining(["user's mother lives_in Galway", "user's father lives_in Galway"]));
    const retired = described('my parents retired to Alicante in 2020');
    expect(retired).toEqual(expect.arrayContaining(["user's mother lives_in Alicante", "user's father lives_in Alicante"]));
    expect(retired.join(';')).not.toMatch(/works_at|job_title/);
  });
});

describe('notes, headers and journeys', () => {
  it('reads a dropped-auxiliary journey in a note as a trip, also when it is called off', () => {
    expect(described('User flying to Denver on the 12th for a wedding')).toContain('user trip_to Denver');
    expect(described('User no longer traveling to Lyon for the summit')).toContain('user NOT trip_to Lyon');
  });
  it('reads a flight or train to somewhere as a trip there', () => {
    expect(described('my flight to glasgow is on the 4th of July').some((f) => /trip_to glasgow/i.test(f))).toBe(true);
  });
  it('ignores e-mail header lines', () => {
    expect(described('To: Payroll\nRe: Bank details\n\nThanks')).toEqual([]);
  });
  it('does not take a relation word, an adjunct or a faith as the object', () => {
    expect(described('my boyfriend and I split up')).toContain('user NOT partner *');
    expect(cleanObject('has_loan', 'on lease')).toBeUndefined();
    expect(described("I'm Sikh so no beef").join(';')).not.toMatch(/ name /);
  });
});

describe('ellipsis, step-parents, indefinite objects and gigs', () => {
  it('"but not any more" denies the past state of the same sentence', () => {
    expect(described("I was vegan for two years but I'm not anymore")).toContain('user NOT diet vegan');
    expect(described('I lived in Oslo')).toContain('user lives_in Oslo');
  });
  it('counts a step-parent as the parent', () => {
    expect(described('my stepdad Colin is brilliant')).toContain('user has_father Colin');
  });
  it('drops indefinite pronouns as objects and trims frequency tails', () => {
    expect(cleanObject('drives', "whatever's free")).toBeUndefined();
    expect(cleanObject('plays', 'Fortnite every night')).toBe('Fortnite');
  });
  it('does not read a performer playing a venue as a game', () => {
    expect(described('Harry Styles is playing Hampden in June')).toEqual([]);
    expect(described('my daughter Ava is playing Roblox again').some((f) => f.startsWith('Ava plays Roblox'))).toBe(true);
  });
});
