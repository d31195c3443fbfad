import { describe, expect, it } from 'vitest';
import { expandContractions } from './contractions.js';
import { findDates, removeMentions } from './dates.js';
import { stripMarkdown } from './markdown.js';
import { splitClauses, splitSentences } from './sentences.js';
import { isTranscript, userText } from './transcript.js';

const REF = new Date('2024-06-15T12:00:00Z');

describe('transcripts', () => {
  it('detects speaker labels in any case and keeps only user turns', () => {
    const text = 'User: hi\nASSISTANT: hello\nhuman: I live in Oslo\nand I like skiing\nai: nice\n**user**: bye';
    expect(isTranscript(text)).toBe(true);
    expect(userText(text)).toEqual(['hi', 'I live in Oslo\nand I like skiing', 'bye']);
  });

  it('returns plain content unchanged', () => {
    expect(isTranscript('Note: I live in Oslo')).toBe(false);
    expect(userText('Note: I live in Oslo')).toEqual(['Note: I live in Oslo']);
  });
});

describe('markdown', () => {
  it('removes formatting, links, code blocks and list markers', () => {
    expect(stripMarkdown('## Me\n- I live in **Hamburg**\n1. I use `vim` and [Linux](https://kernel.org)\n```\nI live in Berlin\n```')).toBe('Me\nI live in Hamburg\nI use vim and Linux\n\n');
  });

  it('turns table rows into text', () => {
    expect(stripMarkdown('| Lives in | Hamburg |\n|---|---|')).toBe('Lives in: Hamburg\n');
  });
});

describe('contractions', () => {
  it('expands common contractions and chat spellings', () => {
    expect(expandContractions("I'm from Spain and I've got a dog, I don't smoke, I can't swim")).toBe('I am from Spain and I have got a dog, I do not smoke, I can not swim');
    expect(expandContractions('im from spain, i dont smoke')).toBe('I am from spain, i do not smoke');
    expect(expandContractions("I'd love to go, I'd been there")).toBe('I would love to go, I had been there');
  });

  it("reads 's as 'is' before a complement and keeps possessives", () => {
    expect(expandContractions("Anna's a doctor and my birthday's on May 3")).toBe('Anna is a doctor and my birthday is on May 3');
    expect(expandContractions("my cousin's wedding")).toBe("my cousin's wedding");
  });
});

describe('sentences and clauses', () => {
  it('splits sentences but not abbreviations or decimals', () => {
    expect(splitSentences('I work at St. Mary\'s. I weigh 72.5 kg! Do you?\nNew line')).toEqual(["I work at St. Mary's.", 'I weigh 72.5 kg!', 'Do you?', 'New line']);
  });

  it('splits clauses at a new subject or a continued verb, not inside lists', () => {
    const verb = (t: string) => /^(?:work|hate)\b/.test(t);
    const never = () => false;
    const hasVerb = (t: string) => /\b(?:live|love|like)\b/.test(t);
    expect(splitClauses('I live in Berlin and work at Siemens', verb, never, hasVerb)).toEqual([
      { text: 'I live in Berlin', inheritsSubject: false },
      { text: 'work at Siemens', inheritsSubject: true },
    ]);
    expect(splitClauses('I love tea, but I hate coffee', verb, never, hasVerb).map((c) => c.text)).toEqual(['I love tea', 'I hate coffee']);
    expect(splitClauses('I like hiking, cycling and swimming', verb, never, hasVerb).map((c) => c.text)).toEqual(['I like hiking, cycling and swimming']);
    expect(splitClauses('Julia and I got married', verb, never, hasVerb).map((c) => c.text)).toEqual(['Julia and I got married']);
  });
});

describe('dates', () => {
  it('finds stated dates with their role and removes them from the clause', () => {
    const clause = 'I have lived in Zurich since March 2021';
    const [mention] = findDates(clause, REF, false);
    expect(mention).toMatchObject({ role: 'start', text: 'since March 2021' });
    expect(mention.date.toISOString()).toBe('2021-03-01T00:00:00.000Z');
    expect(removeMentions(clause, [mention])).toBe('I have lived in Zurich');
  });

  it('reads bare years, ranges, ends and durations', () => {
    expect(findDates('I worked there until 2020', REF, false)[0]).toMatchObject({ role: 'end' });
    const range = findDates('I lived in London from 2015 to 2018', REF, false)[0];
    expect([range.date.getUTCFullYear(), range.until?.getUTCFullYear()]).toEqual([2015, 2018]);
    expect(findDates('I have been a nurse for ten years', REF, false)[0]).toMatchObject({ role: 'duration' });
    expect(findDates('I have been a nurse for ten years', REF, false)[0].date.toISOString().slice(0, 10)).toBe('2014-06-15');
  });

  it('ignores times of day, frequencies and amounts', () => {
    expect(findDates('I wake up at 5', REF, false)).toEqual([]);
    expect(findDates('I earn 60k a year', REF, true)).toEqual([]);
    expect(findDates('I play tennis every weekend', REF, false)).toEqual([]);
  });
});
