import { describe, expect, it } from 'vitest';
import type { ExtractedFact } from '../../types.js';
import { createFactExtractor } from '../index.js';
import { MAX_CONTENT_CHARS, RuleFactExtractor, extractFactsWithRules, isQuestionOrRequest } from './fact-extractor.js';

const REF = new Date('2024-06-15T12:00:00Z'); // a Saturday
const extract = (content: string, referenceTime = REF) => extractFactsWithRules({ content, referenceTime });
const brief = (facts: ExtractedFact[]) => facts.map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);
const day = (d: Date | null | undefined) => d?.toISOString().slice(0, 10) ?? null;
const only = (content: string) => {
  const facts = extract(content);
  expect(facts, JSON.stringify(brief(facts))).toHaveLength(1);
  return facts[0];
};

describe('first-person facts', () => {
  it('uses the subject "user" and fills every field', () => {
    expect(only('I live in Berlin.')).toEqual({
      subject: 'user',
      subjectType: 'user',
      predicate: 'lives_in',
      predicateRaw: 'live in',
      family: 'places',
      object: 'Berlin',
      objectIsLiteral: false,
      negated: false,
      tense: 'current',
      validFrom: null,
      validTo: null,
      confidence: 0.9,
    });
  });

  it('maps surface forms to one canonical predicate', () => {
    for (const text of ['I moved to Munich.', 'I relocated to Munich.', "I'm based in Munich.", 'We live in Munich.', 'i live in munich']) {
      expect(only(text), text).toMatchObject({ subject: 'user', predicate: 'lives_in' });
    }
  });

  it('marks literals', () => {
    expect(only("I'm 34 years old.")).toMatchObject({ predicate: 'age', object: '34', objectIsLiteral: true, family: 'other' });
    expect(only('I earn 60k a year.')).toMatchObject({ predicate: 'salary', object: '60k a year', objectIsLiteral: true });
  });

  it('splits lists for multi-valued predicates only', () => {
    expect(brief(extract("I'm allergic to peanuts, shellfish and penicillin."))).toEqual(['user allergic_to peanuts', 'user allergic_to shellfish', 'user allergic_to penicillin']);
    expect(brief(extract('I love mac and cheese.'))).toEqual(['user likes mac and cheese']);
  });
});

describe('third persons and possessives', () => {
  it('uses a named third person as the subject', () => {
    expect(only('Anna works at Siemens.')).toMatchObject({ subject: 'Anna', subjectType: 'person', predicate: 'works_at', object: 'Siemens' });
  });

  it('turns "my sister Anna" into a people fact plus a fact about Anna', () => {
    const facts = extract('My sister Anna lives in Rome.');
    expect(brief(facts)).toEqual(['user has_sister Anna', 'Anna lives_in Rome']);
    expect(facts[0]).toMatchObject({ family: 'people', subjectType: 'user' });
    expect(facts[1]).toMatchObject({ subjectType: 'person' });
  });

  it('handles spouses, appositives and "X is my Y"', () => {
    expect(brief(extract('My wife Maria is a teacher.'))).toEqual(['user married_to Maria', 'Maria job_title teacher']);
    expect(brief(extract('Tom, my brother, lives in Graz.'))).toEqual(['user has_brother Tom', 'Tom lives_in Graz']);
    expect(brief(extract('Peter is my boss.'))).toEqual(['user has_manager Peter']);
    expect(brief(extract("My husband's name is Mark."))).toEqual(['user married_to Mark']);
  });

  it('keeps unnamed relatives apart from the user', () => {
    expect(brief(extract('My sister lives in Rome.'))).toEqual(["user's sister lives_in Rome"]);
  });

  it('resolves he/she to the last person named in the same content', () => {
    expect(brief(extract('My sister Anna lives in Rome. She works at Fiat.'))).toEqual(['user has_sister Anna', 'Anna lives_in Rome', 'Anna works_at Fiat']);
    expect(extract('She works at Fiat.')).toEqual([]);
  });

  it('reads compound subjects', () => {
    expect(brief(extract('Me and my husband Paul live in Bristol.'))).toEqual(['user married_to Paul', 'user lives_in Bristol', 'Paul lives_in Bristol']);
  });
});

describe('negation', () => {
  it('marks denials as negated', () => {
    expect(only("I don't eat meat any more.")).toMatchObject({ predicate: 'eats', object: 'meat', negated: true, tense: 'current' });
    expect(only('I no longer work at Google.')).toMatchObject({ predicate: 'works_at', object: 'Google', negated: true });
    expect(only("I'm not vegetarian anymore.")).toMatchObject({ predicate: 'diet', object: 'vegetarian', negated: true });
  });

  it('reads verbs that end a relation as negations', () => {
    expect(only('I sold my car.')).toMatchObject({ predicate: 'owns', object: 'car', negated: true });
    expect(only('I quit smoking.')).toMatchObject({ predicate: 'habit', object: 'smoking', negated: true });
    expect(only('I stopped taking insulin.')).toMatchObject({ predicate: 'takes_medication', object: 'insulin', negated: true });
    expect(only('I moved out of Hamburg.')).toMatchObject({ predicate: 'lives_in', object: 'Hamburg', negated: true });
  });

  it('uses "*" for a denial without an object', () => {
    expect(only('I quit my job.')).toMatchObject({ predicate: 'works_at', object: '*', negated: true, objectIsLiteral: true });
    expect(only('I got divorced.')).toMatchObject({ predicate: 'married_to', object: '*', negated: true });
  });

  it('turns a denied like into a dislike', () => {
    expect(only("I don't like coffee anymore.")).toMatchObject({ predicate: 'dislikes', object: 'coffee', negated: false });
    expect(only("I'm not a fan of jazz.")).toMatchObject({ predicate: 'dislikes', object: 'jazz', negated: false });
  });

  it('does not negate twice', () => {
    expect(only("I didn't sell my car.")).toMatchObject({ predicate: 'owns', negated: false });
  });
});

describe('tense', () => {
  it('reads past relations', () => {
    expect(only('I used to live in Paris.')).toMatchObject({ predicate: 'lives_in', tense: 'past' });
    expect(only('I was married to Tom.')).toMatchObject({ predicate: 'married_to', tense: 'past' });
    const ibm = only('I worked at IBM until 2020.');
    expect(ibm).toMatchObject({ predicate: 'works_at', object: 'IBM', tense: 'past' });
    expect(day(ibm.validTo)).toBe('2020-01-01');
  });

  it('reads a completed change as a current state', () => {
    expect(only('I moved to Munich.')).toMatchObject({ tense: 'current' });
    expect(only('I joined Google.')).toMatchObject({ tense: 'current' });
    expect(only('I have lived in Zurich for five years.')).toMatchObject({ tense: 'current' });
  });

  it('keeps lasting experiences current', () => {
    expect(only('I was born in Toronto.')).toMatchObject({ predicate: 'born_in', tense: 'current' });
    expect(only('I visited Japan in 2019.')).toMatchObject({ predicate: 'visited', tense: 'current' });
  });

  it('reads plans, with the stated date as validFrom', () => {
    const rome = only("I'm moving to Rome next month.");
    expect(rome).toMatchObject({ predicate: 'lives_in', object: 'Rome', tense: 'planned', confidence: 0.9 });
    expect(day(rome.validFrom)).toBe('2024-07-15');
    expect(only('I will start at Amazon in September.')).toMatchObject({ predicate: 'works_at', tense: 'planned' });
    expect(only("I'm going to move to Lisbon.")).toMatchObject({ tense: 'planned', validFrom: null, confidence: 0.72 });
  });

  it('turns visits into trips when they lie ahead', () => {
    expect(only("I'm flying to Tokyo next week.")).toMatchObject({ predicate: 'trip_to', tense: 'planned' });
    expect(only('I flew to Tokyo last week.')).toMatchObject({ predicate: 'visited', tense: 'current' });
  });

  it('drops planned denials and hedged plans', () => {
    expect(extract("I'm quitting my job next month.")).toEqual([]);
    expect(extract('Maybe I will move to Lisbon.')).toEqual([]);
    expect(extract('I might move to Lisbon.')).toEqual([]);
  });
});

describe('dates', () => {
  const from = (text: string) => day(only(text).validFrom);

  it('resolves stated dates against the reference time', () => {
    expect(from('I have worked at Siemens since March 2021.')).toBe('2021-03-01');
    expect(from('I moved to Munich last year.')).toBe('2023-06-15');
    expect(from('I joined Google two years ago.')).toBe('2022-06-15');
    expect(from('I moved to Munich in 2019.')).toBe('2019-01-01');
    expect(from('I bought a Tesla yesterday.')).toBe('2024-06-14');
    expect(from('I adopted a cat on 3 May.')).toBe('2024-05-03');
    expect(from("I've been a nurse for ten years.")).toBe('2014-06-15');
  });

  it('resolves ambiguous dates forward for plans and appointments', () => {
    expect(from('I have a dentist appointment on Friday.')).toBe('2024-06-21');
    expect(from("I'm moving to Rome in May.")).toBe('2025-05-01');
  });

  it('reads a year range as start and end of a past relation', () => {
    const london = only('I lived in London from 2015 to 2018.');
    expect(day(london.validFrom)).toBe('2015-01-01');
    expect(day(london.validTo)).toBe('2018-01-01');
  });

  it('leaves validFrom null when nothing is stated', () => {
    expect(only('I live in Berlin.').validFrom).toBeNull();
  });

  it('does not read habits or amounts as dates', () => {
    expect(only('I play tennis every weekend.')).toMatchObject({ object: 'tennis', validFrom: null });
    expect(only('I earn 60k a year.')).toMatchObject({ validFrom: null });
  });

  it('reads birthdays as month and day', () => {
    expect(brief(extract('My birthday is on the 3rd of May.'))).toEqual(['user birthday May 3']);
    expect(brief(extract('I was born on 12 August 1990.'))).toEqual(['user birthday August 12', 'user birth_year 1990']);
  });
});

describe('confidence', () => {
  it('is lower for hedged statements', () => {
    expect(only("I'm allergic to penicillin.").confidence).toBe(0.9);
    expect(only("I think I'm allergic to penicillin.").confidence).toBeLessThan(0.9);
    expect(only("Maybe I'm allergic to penicillin.").confidence).toBeLessThan(only("I think I'm allergic to penicillin.").confidence);
    expect(only('I might be allergic to penicillin.').confidence).toBeLessThan(0.9);
  });
});

describe('content without facts', () => {
  it('yields nothing for short replies, small talk, questions and requests', () => {
    for (const text of ['ok', 'thanks!', 'lol', 'Good morning!', 'Where do you live?', 'Can you recommend a restaurant in Munich?', 'Tell me a joke.', "I'm fine, thanks.", 'I have no idea.', '', '   ']) {
      expect(extract(text), text).toEqual([]);
    }
  });

  it('recognises questions and requests', () => {
    expect(isQuestionOrRequest('Do you like pizza')).toBe(true);
    expect(isQuestionOrRequest('I live in Berlin?')).toBe(true);
    expect(isQuestionOrRequest('Call me Alex.')).toBe(false);
    expect(isQuestionOrRequest('I live in Berlin.')).toBe(false);
  });

  it('ignores hypotheticals and deliberation', () => {
    expect(extract('If I lived in Paris I would eat croissants.')).toEqual([]);
    expect(extract("I'm thinking about moving to Rome.")).toEqual([]);
    expect(extract('I need to buy a car.')).toEqual([]);
  });
});

describe('transcripts and markdown', () => {
  it('takes facts only from the user in a transcript, whatever the label case', () => {
    const transcript = 'user: I live in Oslo\nassistant: I live in the cloud and love dogs.\nUser: I work at Equinor.\nAI: I work at OpenAI\nHuman: I have a cat';
    expect(brief(extract(transcript))).toEqual(['user lives_in Oslo', 'user works_at Equinor', 'user has_pet cat']);
  });

  it('continues a turn over unlabelled lines', () => {
    expect(brief(extract('Assistant: Tell me about yourself.\nUser: Sure.\nI speak Dutch.\nassistant: Nice.'))).toEqual(['user speaks Dutch']);
  });

  it('tolerates markdown', () => {
    const md = '# About me\n\n- I live in **Hamburg**\n- I work as a *data scientist* at [Otto](https://otto.de)\n\n```\nI live in Berlin\n```\n> I speak Dutch';
    expect(brief(extract(md))).toEqual(['user lives_in Hamburg', 'user job_title data scientist', 'user works_at Otto', 'user speaks Dutch']);
  });
});

describe('limits and determinism', () => {
  it('handles content up to the limit quickly and ignores the rest', () => {
    const filler = 'The weather was nice and we talked about many things. ';
    const content = `${'I live in Berlin. '}${filler.repeat(Math.ceil(MAX_CONTENT_CHARS / filler.length))}I work at Google.`;
    const started = performance.now();
    const facts = extract(content);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(brief(facts)).toEqual(['user lives_in Berlin']);
  });

  it('returns the same facts for the same input', () => {
    const text = 'My sister Anna moved to Rome last year. I love sushi but hate olives.';
    expect(extract(text)).toEqual(extract(text));
  });

  it('deduplicates repeated statements in one content', () => {
    expect(brief(extract('I live in Berlin. Yes, I live in Berlin!'))).toEqual(['user lives_in Berlin']);
  });

  it('is the default extractor from the factory', async () => {
    const extractor = createFactExtractor({ EXTRACTOR: 'rules', EXTRACTION_MODEL: 'unused' });
    expect(extractor).toBeInstanceOf(RuleFactExtractor);
    await expect(extractor.extractFacts({ content: 'I live in Berlin.', referenceTime: REF })).resolves.toHaveLength(1);
  });
});
