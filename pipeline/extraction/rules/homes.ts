import nlp from 'compromise';
import { classesBySense } from '../noun-classes.js';
import type { FactDraft } from './draft.js';
import { isVerbForm } from './inflection.js';
import { ACQUAINTANCES, GROUP_RELATIONS, RELATIONS } from './lexicon.js';
import { USER } from './subjects.js';

/**
 * Where the user lives, said through the home rather than a verb of living: "rent's £1,350 for a
 * one-bed flat in Leeds", "we own a little terraced house in Sheffield", "got the keys to the flat in
 * Ancoats", "paying €1,600 for a studio in Rathmines", "(Hackney flat)". The home must be the writer's
 * (their words: I, we, my, our) and not one they are leaving, selling or visiting.
 */

const DWELLING = String.raw`(?:flat|apartment|apt|house|houseshare|house\s+share|studio|condo|bedsit|one-bed|two-bed|\d\s?-?\s?bed(?:room)?|\dBR|bungalow|cottage|terrace|townhouse|room)`;
const PLACE = String.raw`(\p{L}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)`;
const AFTER = new RegExp(String.raw`\b${DWELLING}\s+(?:in|outside|near|just\s+outside)\s+`, 'giu');
const DESTINATION = new RegExp(String.raw`^${PLACE}`, 'u');
const BEFORE = new RegExp(String.raw`\b(\p{Lu}[\p{L}'’-]*)\s+${DWELLING}\b`, 'gu');
/** The writer's own words, or what only a tenant or owner says ("rent's gone up", "paying €1,600 for a studio"). */
const WRITER = /\b(?:I|we|my|our|me|us|rent|rent's|mortgage|lease|paying|pay|keys)\b/i;
// Buying a home is owning it; whether one lives there the sentence does not say.
const NOT_THEIR_HOME = /\b(?:bought|buying|buy|purchased|closed\s+on|sold|selling|sell|left|leaving|moving\s+out|moved\s+out|holiday|second\s+home|airbnb|hotel|hostel|visit|visiting|stayed|staying|viewing|viewed|looking\s+at|mum['’]s|mom['’]s|dad['’]s|parents['’]|friend['’]s|sister['’]s|brother['’]s|his|her|their|every\s+(?:summer|winter|weekend|year|holiday))\b/i;
/** The words of the clause before the home: its owner must be the writer, not "he" or "my sister". */
const OTHER_OWNER = /\b(?:he|she|they|his|her|their)\b/i;

/** "my sister has a flat in ...", "Tom rents a room in ...": the home of a relative or a named person. */
function ownedByOther(clause: string): boolean {
  const relation = /\b(?:my|our)\s+([a-z-]+(?:\s+[a-z-]+)?)/i.exec(clause);
  if (relation && [relation[1], relation[1].split(' ')[0]].some((w) => RELATIONS[w] || GROUP_RELATIONS.has(w) || ACQUAINTANCES.has(w))) return true;
  return /^\s*\p{Lu}\p{Ll}+\s+(?:has|owns|rents|is|was|lives|bought|got)\b/u.test(clause);
}

function isPlaceName(name: string): boolean {
  if (nlp(name).has('#Place')) return true;
  if (!/^\p{Lu}/u.test(name) || isVerbForm(name.toLowerCase())) return false;
  const senses = classesBySense(name.toLowerCase(), 2);
  return senses.length === 0 || senses.some((classes) => classes.has('location') || classes.has('region'));
}

const MENTIONS_DWELLING = new RegExp(String.raw`\b${DWELLING}\b`, 'i');

export function homeFacts(sentence: string): FactDraft[] {
  if (!MENTIONS_DWELLING.test(sentence) || !WRITER.test(sentence) || NOT_THEIR_HOME.test(sentence)) return [];
  const places: string[] = [];
  const consider = (place: string | undefined, at: number) => {
    const clause = sentence.slice(0, at).split(/[,;:.!?]|\b(?:and|but|so|because|while)\b/).pop() ?? '';
    if (OTHER_OWNER.test(clause) || ownedByOther(clause)) return;
    // "Cary NC": the town without its state code.
    const name = place?.replace(/\s+(?:in|on|for|with|and|but|so|since|from)$/i, '').replace(/\s+\p{Lu}{2}$/u, '').trim();
    if (name && isPlaceName(name) && !places.includes(name)) places.push(name);
  };
  for (const m of sentence.matchAll(AFTER)) consider(DESTINATION.exec(sentence.slice(m.index + m[0].length))?.[1], m.index);
  for (const m of sentence.matchAll(BEFORE)) consider(m[1], m.index);
  return places.slice(0, 1).map((object) => ({
    subject: USER, predicate: 'lives_in', predicateRaw: 'home in', object, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.7,
  }));
}
