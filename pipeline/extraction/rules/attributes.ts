import type { Tense } from '../../types.js';
import type { FactDraft } from './draft.js';
import { findAmount, parseAmount } from '../amount.js';
import { extractObjects } from './objects.js';
import { favoritePredicate } from './special.js';
import { RELATIONS } from './lexicon.js';
import { USER, type SubjectRef } from './subjects.js';

/**
 * The user's single-valued attributes named by a head noun, with or without "my" (chat drops it):
 * "fave food is a Sunday roast", "holiday budget is 2 grand", "rent's gone up to £1,350 a month",
 * "salary went from 41k to 47k", agent-note labels "Favorite food: pho", "Income 72k", "Rent $1,400",
 * and superlatives that name a favourite ("X is the best film ever made").
 * The head noun decides the predicate; modifiers ("holiday", "monthly food", "wedding") are free.
 */

type Head = { predicate: string; money: boolean };

const MONEY_HEADS: [RegExp, string][] = [
  [/^(?:salary|income|pay|wages?|take[- ]home(?: pay)?|hourly rate|pay rate|day rate|base(?: salary| pay)?|earnings)$/, 'salary'],
  [/^rent$/, 'pays_rent'],
  [/^budget$/, 'budget'],
];
const FAVORITE = /^(?:all[- ]time\s+|absolute\s+|current\s+|very\s+)?(?:favou?rite|fave?|comfort)\s+(tv show|kind of music|type of music|[\p{L}]+)(?:\s+ever)?$/u;
/** A period implied by the head: "hourly rate", "monthly budget". */
const HEAD_PERIOD: [RegExp, string][] = [[/\bhourly\b/, 'an hour'], [/\bday rate\b|\bdaily\b/, 'a day'], [/\bweekly\b/, 'a week'], [/\bmonthly\b/, 'a month'], [/\b(?:annual|yearly)\b/, 'a year']];

function headOf(phrase: string): Head | undefined {
  const p = phrase.toLowerCase().replace(/\s+/g, ' ').trim();
  const favorite = FAVORITE.exec(p);
  if (favorite) return { predicate: favoritePredicate(favorite[1]), money: false };
  // The head is the last one or two words: "monthly food budget", "new base salary", "take-home pay".
  const words = p.split(' ');
  for (const n of [2, 1]) {
    const candidate = words.slice(-n).join(' ');
    for (const [pattern, predicate] of MONEY_HEADS) if (pattern.test(candidate)) return { predicate, money: true };
  }
  return undefined;
}

const OWNER = /^(?:(?:my|our|the)\s+)?/i;
const MODIFIERS = String.raw`(?:[\p{L}'’-]+\s+){0,3}?`;
const HEAD_WORDS = String.raw`(?:(?:all[- ]time\s+|absolute\s+)?(?:favou?rite|fave?|comfort)\s+(?:tv\s+show|kind\s+of\s+music|type\s+of\s+music|[\p{L}]+)(?:\s+ever)?|salary|income|pay|wages?|take[- ]home(?:\s+pay)?|hourly\s+rate|pay\s+rate|day\s+rate|base(?:\s+salary|\s+pay)?|earnings|rent|budget)`;
const CHANGE = String.raw`(?:is|are|was|will\s+be|has\s+been|is\s+now|(?:has\s+|is\s+)?gone\s+(?:up|down)\s+to|went\s+(?:up|down)\s+to|is\s+going\s+(?:up|down)\s+to|goes\s+(?:up|down)\s+to|will\s+go\s+(?:up|down)\s+to|(?:has\s+)?(?:increased|risen|rose|jumped|dropped|fallen|fell|gone)\s+to|comes?\s+to|(?:is\s+)?sitting\s+at|sits\s+at|(?:went|goes|has\s+gone|is\s+going|is\s+gone|changed)\s+from\s+(?<from>.+?)\s+to|from\s+(?<from2>.+?)\s+to)`;

const STATEMENT = new RegExp(String.raw`^${OWNER.source}(?<phrase>${MODIFIERS}${HEAD_WORDS})(?:\s+(?:for|in|at|on|with)\s+(?:the\s+|my\s+|our\s+)?(?<purpose>[\p{L} '’-]+?))?\s+(?<verb>${CHANGE})\s+(?<value>.+)$`, 'iu');
/** Agent-note labels: "Favorite food: pho", "Income 72k", "Rent $1,400", "Budget - $500". */
const LABEL = new RegExp(String.raw`^(?!(?:i|we|you|they|he|she|it)\b)(?<phrase>${MODIFIERS}${HEAD_WORDS})\s*(?:[:=–—-]\s*|\s+(?=[$£€~]|\d))(?<value>.+)$`, 'iu');
/** "Paddington 2 is the greatest film ever made", "snooker is the best sport to watch". */
const SUPERLATIVE = /^(?<value>.+?)\s+(?:is|are)\s+(?:the|my)\s+(?:best|greatest|finest|favou?rite)\s+(?<category>film|movie|book|novel|band|album|song|sport|food|dish|show|tv show|series|game|colou?r)\s+(?:ever(?:\s+made|\s+written|\s+recorded)?|of all time|in the world|to watch|to play|there is)\b/i;

function tenseOf(verb: string): Tense {
  if (/^was\b/i.test(verb)) return 'past';
  if (/^will\b|^is\s+going\b/i.test(verb)) return 'planned';
  return 'current';
}

function draft(predicate: string, object: string, raw: string, tense: Tense, negated = false, subject: SubjectRef = USER): FactDraft {
  return { subject, predicate, predicateRaw: raw, object, negated, tense, validFrom: null, validTo: null, confidence: 0.9 };
}

function values(value: string, head: Head, phrase: string): string[] {
  const cleaned = value.replace(/^(?:probably|definitely|still|now|currently|only|just)\s+/i, '');
  // "Blue by Joni Mitchell": the work, not its maker.
  if (!head.money) return extractObjects(cleaned.replace(/\s+by\s+.*$/i, ''), { objectClass: 'any', predicate: head.predicate, multi: false });
  const amount = findAmount(cleaned, true);
  if (!amount) return [];
  const parsed = parseAmount(amount);
  const implied = HEAD_PERIOD.find(([pattern]) => pattern.test(phrase.toLowerCase()))?.[1];
  return [parsed && !parsed.period && implied ? `${amount} ${implied}` : amount];
}

const POSSESSOR = /^(?:(?:my|our)\s+)?(\p{L}[\p{L}-]*)['’]s\s+/iu;

/**
 * Whose attribute it is: "my sister's rent went up" is the sister's, "Anna's salary" is Anna's.
 * Undefined for a possessor that is neither a relative nor a name ("the landlord's rent" says nothing about the user).
 */
function ownerOf(phrase: string): { subject: SubjectRef; phrase: string } | undefined {
  const m = POSSESSOR.exec(phrase);
  if (!m) return { subject: USER, phrase };
  const rest = phrase.slice(m[0].length);
  const word = m[1];
  const relation = RELATIONS[word.toLowerCase()];
  if (relation) return { subject: { subject: `user's ${relation.relation}`, subjectType: 'person', confidence: 1 }, phrase: rest };
  if (/^\p{Lu}/u.test(word) && !relation) return { subject: { subject: word, subjectType: 'person', confidence: 1 }, phrase: rest };
  return undefined;
}

/** Drafts for an attribute clause, or undefined when the clause is not one. */
export function attributeFacts(text: string): FactDraft[] | undefined {
  const t = text.trim().replace(/[.!]+$/, '');
  const superlative = SUPERLATIVE.exec(t);
  if (superlative?.groups) {
    const predicate = favoritePredicate(superlative.groups.category);
    const found = extractObjects(superlative.groups.value, { objectClass: 'any', predicate, multi: false });
    return found.length > 0 ? found.map((v) => draft(predicate, v, `is the best ${superlative.groups!.category}`, 'current')) : undefined;
  }
  const match = STATEMENT.exec(t) ?? LABEL.exec(t);
  const groups = match?.groups;
  if (!groups) return undefined;
  const owner = ownerOf(groups.phrase);
  if (!owner) return undefined;
  const head = headOf(owner.phrase);
  if (!head) return undefined;
  const verb = groups.verb ?? ':';
  const raw = `${groups.phrase} ${verb.replace(/\s+from\s+.*$/i, ' from')}`.toLowerCase();
  const found = values(groups.value, head, groups.phrase);
  if (found.length === 0) return undefined;
  const tense = tenseOf(verb);
  const drafts = found.map((v) => draft(head.predicate, v, raw, tense, false, owner.subject));
  const from = groups.from ?? groups.from2;
  if (from) for (const old of values(from, head, groups.phrase)) drafts.push(draft(head.predicate, old, raw, 'current', true, owner.subject));
  return drafts;
}
