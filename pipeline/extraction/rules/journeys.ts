import nlp from 'compromise';
import { classesBySense } from '../noun-classes.js';
import type { FactDraft } from './draft.js';
import { findDates } from './dates.js';
import { isVerbForm, readVerb } from './inflection.js';
import { USER } from './subjects.js';

/**
 * Trips named by a journey noun rather than a verb of motion: "planning a road trip through the Highlands",
 * "booked a holiday to Crete for June", "the Cancun trip got cancelled", "took a short trip to Rome".
 * The destination follows the noun ("trip to X", "cruise around X") or comes before it ("the Iceland
 * trip"). The sentence's verbs decide the reading: a trip taken is a visit, a trip called off a denied
 * plan, any other a plan (dated when the sentence names a coming date). Trips of other people
 * ("my sister's trip to Rome") are not the user's.
 */

const JOURNEY = String.raw`(?:road\s+trip|city\s+break|weekend\s+away|trip|holiday|vacation|getaway|honeymoon|cruise|flights?)`;
const PLACE = String.raw`((?:the\s+)?\p{L}[\p{L}'’-]*(?:\s+(?:de\s+|del\s+|of\s+)?\p{Lu}[\p{L}'’-]*)*)`;
/** The journey noun and the preposition before its destination; the destination itself is read case-sensitively. */
const AFTER = new RegExp(String.raw`\b${JOURNEY}\s+(?:\p{L}+\s+){0,2}?(?:to|in|through|around|across|round)\s+`, 'giu');
const DESTINATION = new RegExp(String.raw`^${PLACE}`, 'u');
const BEFORE = new RegExp(String.raw`\b(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)?)\s+${JOURNEY}\b`, 'gu');
const OTHERS_TRIP = /\b(?:(?:his|her|their|your)|\p{Lu}\p{L}*['’]s|(?:sister|brother|mum|mom|dad|son|daughter|friend|wife|husband|partner)['’]s)\s+(?:\p{L}+\s+)?$/iu;
const CALLED_OFF = /\b(?:(?:is|are|was|['’]s)\s+(?:now\s+|officially\s+)?off\b|cancel(?:l)?ed|cancel(?:l)?ing|called\s+off|calling\s+off|scrapped|fell\s+through|no\s+(?:longer\s+)?(?:trip|holiday|vacation)|not\s+(?:going|happening))\b/i;
const TAKEN = /\b(?:took|went\s+on|had\s+(?:a|an|the|our|my)|was\s+(?:on|away)|were\s+(?:on|away)|got\s+back|came\s+back|returned|just\s+back|loved|enjoyed)\b/i;

/** A destination: a place compromise knows, or a capitalised name WordNet files under location or does not know. */
function isDestination(name: string): boolean {
  const bare = name.replace(/^the\s+/i, '');
  if (findDates(bare, new Date(0), false).length > 0) return false;
  if (nlp(bare).has('#Place')) return true;
  if (!/^\p{Lu}/u.test(bare)) return false;
  // "Booked flights!": a capitalised verb at the start of a sentence names no place.
  if (isVerbForm(bare.toLowerCase())) return false;
  const senses = classesBySense(bare.toLowerCase(), 2);
  return senses.length === 0 || senses.some((classes) => classes.has('location') || classes.has('region'));
}

/** "cancel the reminder about the Porto trip": an instruction to the assistant, not news about a trip. */
const startsWithInstruction = (sentence: string) => {
  const readings = readVerb(/^\W*([a-z]+)/i.exec(sentence)?.[1] ?? '');
  return readings.length > 0 && readings.every((r) => r.form === 'base');
};
/** "saving up for a trip to Japan": a goal the saving is for (saving_for), not yet a plan. */
const SAVING_FOR = /\bsaving\s+(?:up\s+)?for\s+(?:a|an|the|our|my)\s+(?:\p{L}+\s+)?$/iu;

const MENTIONS_JOURNEY = new RegExp(JOURNEY, 'i');

export function journeyFacts(sentence: string, referenceTime: Date): FactDraft[] {
  if (!MENTIONS_JOURNEY.test(sentence) || startsWithInstruction(sentence)) return [];
  const places: string[] = [];
  const consider = (place: string | undefined, at: number) => {
    const before = sentence.slice(0, at);
    if (!place || OTHERS_TRIP.test(before) || SAVING_FOR.test(before)) return;
    const trimmed = place.replace(/\s+(?:in|on|for|with|next|this|last)$/i, '');
    if (isDestination(trimmed) && !places.includes(trimmed)) places.push(trimmed);
  };
  for (const m of sentence.matchAll(AFTER)) consider(DESTINATION.exec(sentence.slice(m.index + m[0].length))?.[1], m.index);
  for (const m of sentence.matchAll(BEFORE)) consider(m[1], m.index);
  if (places.length === 0) return [];
  const calledOff = CALLED_OFF.test(sentence);
  const taken = !calledOff && TAKEN.test(sentence);
  const when = taken || calledOff ? undefined : findDates(sentence, referenceTime, true).find((d) => d.role !== 'duration' && d.date > referenceTime);
  return places.map((object) => ({
    subject: USER,
    predicate: taken ? 'visited' : 'trip_to',
    predicateRaw: 'trip',
    object: object.replace(/^the\s+(?=\p{Lu})/u, ''),
    negated: calledOff,
    tense: taken ? 'past' : calledOff ? 'current' : 'planned',
    validFrom: when?.date ?? null,
    validTo: null,
    confidence: 0.7,
  }));
}
