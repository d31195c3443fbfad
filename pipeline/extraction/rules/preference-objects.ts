import { readVerb } from './inflection.js';

/**
 * Objects of tastes (likes, dislikes, prefers, favourites, plays, hobby) are things, not the rest of the
 * sentence: adjuncts of time, place, manner and company end the noun phrase ("birdwatching during the
 * pandemic", "bass in a cover band", "Sunday roast with yorkshires", "new manager better"), a new clause
 * ends it ("coriander it tastes like soap"), and a bare light-verb gerund ("playing", "working") or a
 * number ("like 25" is a hedge, not a taste) is no object at all.
 */

const TASTE_PREDICATES = new Set(['likes', 'dislikes', 'prefers', 'hobby', 'plays']);
export const isTastePredicate = (predicate: string) => TASTE_PREDICATES.has(predicate) || predicate.startsWith('favorite_');

const ADJUNCT = /\s+(?:during|for|in|at|on|by|with|from|since|after|before|because|while|when|online|offline|~|\d)\b.*$/i;
const NEW_CLAUSE = /\s+(?:it|he|she|they|i|we|you|that|which)\s+(?:is|are|was|were|has|have|had|does|did|tastes?|looks?|makes?|feels?|smells?|sounds?|gets?|gives?|reminds?|keeps?)\b.*$/i;
const TRAILING_DEGREE = /\s+(?:better|best|more|most|less|least|well|a lot|so much|anymore|lately|too)$/i;
const LEADING_ADVERB = /^(?:much|always|really|very|probably|definitely|actually|also|still|just|totally|absolutely)\s+/i;
const LIGHT_VERBS = new Set(['play', 'work', 'get', 'do', 'go', 'have', 'make', 'be', 'live', 'take', 'say', 'see', 'try', 'use', 'come', 'stay', 'call']);
/** "Love Actually", "Lord of the Rings": a capitalised title keeps its lower-case prepositions. */
const TITLE = /^[A-Z0-9][\p{L}\d'’:-]*(?:\s+(?:[A-Z0-9][\p{L}\d'’:-]*|of|the|and|in|on|at|for|a|an|to|with))*$/u;

/** The cleaned taste object, or undefined when nothing worth keeping is left. */
export function cleanTasteObject(item: string): string | undefined {
  let s = item.trim().replace(LEADING_ADVERB, '');
  if (!TITLE.test(s)) s = s.replace(ADJUNCT, '');
  s = s.replace(NEW_CLAUSE, '').replace(TRAILING_DEGREE, '').trim();
  if (!s || /^[$£€~]|^\d+(?:[.,]\d+)?k?(?:\s|$)/i.test(s) || /\b(?:there|here)$/i.test(s)) return undefined;
  const words = s.split(/\s+/);
  const first = words[0].toLowerCase();
  // "playing", "getting up", "working": the gerund of a light verb says nothing on its own.
  if (words.length <= 2 && first.endsWith('ing') && readVerb(first).some((r) => r.form === 'gerund' && LIGHT_VERBS.has(r.lemma))) return undefined;
  return s;
}
