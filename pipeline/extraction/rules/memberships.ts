import { classesBySense } from '../noun-classes.js';
import type { FactDraft } from './draft.js';
import { isAdjective } from './word-class.js';
import { USER } from './subjects.js';

/**
 * Belonging to a group said by where one is or plays rather than by "member of": "I'm in a choir",
 * "I'm in the Rotary club and the parish council", "I play bass in a covers band", "User in a bowling
 * league". The group is whatever WordNet files, in its most frequent sense, under organisation
 * (club, league, council, team, choir, orchestra) or, in any common sense, under musical organisation
 * (band). Schools, churches and families are organisations there too, but being "in" them says
 * studying, worshipping or kinship, so they are left to other rules.
 */

const GROUP_CLASSES = ['organization', 'musical organization'];
const NOT_MEMBERSHIP = ['educational institution', 'organized religion', 'kin group', 'business', 'institution'];
const DETERMINER = String.raw`(?:a|an|the|our|my|this|that|two|three)`;
const MEMBERSHIP = new RegExp(
  String.raw`\b(?:I|we)(?:\s+|(?=['’]))((?:(?:am|['’]m|are|['’]re|was|were|used\s+to\s+be|have\s+been|['’]ve\s+been)\s+)?(?:not\s+|no\s+longer\s+|still\s+|also\s+|now\s+)*(?:(?:play|plays|playing|played|sing|sings|singing|sang|drum|drums|drumming|perform|performing|dance|dancing)\s+(?:\S+\s+){0,2}?)?)in\s+(${DETERMINER}\s+[^,.;!?()]+)`,
  'giu',
);
const PHRASE_END = /\s+(?:and\s+(?!(?:a|an|the|our|my)\s)|but|so|because|since|who|which|that|where|on|at|for|with|as|in|near|during|while|till|every|from|until|called|named|any\s?more|now|too|again|these\s+days|at\s+the\s+moment)\b.*$/i;
const LEADING_MODIFIERS = /^(?:(?:really|very|pretty|quite|super|small|little|big|local|new|old|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekly|night|morning|evening)\s+)+/i;

/** True when the head noun names a group one belongs to. */
function isGroupNoun(noun: string): boolean {
  const senses = classesBySense(noun, 3);
  if (senses.length === 0) return false;
  if (senses.slice(0, 2).some((s) => NOT_MEMBERSHIP.some((c) => s.has(c)))) return false;
  return GROUP_CLASSES.some((c) => senses[0].has(c)) || senses.slice(0, 2).some((s) => s.has('musical organization'));
}

function groupObject(phrase: string): string | undefined {
  const words = phrase.replace(new RegExp(`^${DETERMINER}\\s+`, 'i'), '').replace(PHRASE_END, '').trim().split(/\s+/);
  if (words.length === 0 || words.length > 5 || !isGroupNoun(words[words.length - 1].toLowerCase())) return undefined;
  // "a really bad covers band": the kind of group without what is said of it.
  while (words.length > 1 && (LEADING_MODIFIERS.test(`${words[0]} `) || (/^[a-z]/.test(words[0]) && isAdjective(words[0])))) words.shift();
  return words.join(' ');
}

export function membershipFacts(sentence: string): FactDraft[] {
  if (!/\bin\s/i.test(sentence)) return [];
  const drafts: FactDraft[] = [];
  for (const m of sentence.matchAll(MEMBERSHIP)) {
    const verb = m[1].toLowerCase();
    const negated = /\bnot\b|\bno longer\b/.test(verb);
    const past = /\b(?:was|were|used to|played|sang)\b/.test(verb);
    for (const phrase of m[2].split(/\s+and\s+(?=(?:a|an|the|our|my)\s)/i)) {
      const object = groupObject(phrase);
      if (!object) continue;
      drafts.push({ subject: USER, predicate: 'member_of', predicateRaw: `${m[1]}in`.trim(), object, negated, tense: past ? 'past' : 'current', validFrom: null, validTo: null, confidence: 0.75 });
    }
  }
  return drafts;
}
