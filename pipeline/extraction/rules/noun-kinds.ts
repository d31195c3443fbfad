import { isKindOf } from '../noun-classes.js';

/**
 * The extractor's object classes for nouns its own lists do not name, decided by WordNet hypernyms
 * (noun-classes.ts). Only classes where the lexical database is reliable: animals kept as pets and
 * durable possessions (vehicles, dwellings, instruments, machines, appliances, furniture).
 */

/** Hypernyms of things people own. "device" alone is too broad (inhalers, pumps, sensors are used, not owned). */
const POSSESSION_CLASSES = [
  'conveyance', 'housing', 'musical instrument', 'computer', 'electronic equipment', 'home appliance', 'appliance', 'furniture',
  'photographic equipment', 'timepiece', 'boat', 'bicycle', 'game equipment', 'sports equipment', 'jewelry', 'telephone', 'television receiver',
];
const PET_SENSE_CLASSES = ['dog', 'domestic cat', 'house cat', 'horse', 'rodent', 'rabbit', 'cage bird', 'pet', 'tropical fish', 'goldfish', 'lizard', 'snake', 'turtle', 'tortoise', 'parrot', 'domestic animal'];

/** Candidate head nouns of a phrase: the last two words, then the last word, singular too. */
function heads(phrase: string): string[] {
  const words = phrase.toLowerCase().replace(/[^a-z' -]/g, ' ').trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const last = words[words.length - 1];
  const singular = last.endsWith('ies') ? `${last.slice(0, -3)}y` : last.replace(/(?<!s)s$/, '');
  const out = words.length > 1 ? [`${words[words.length - 2]} ${last}`] : [];
  return [...out, last, ...(singular !== last ? [singular] : [])];
}

/** True when the phrase's head is a durable possession by WordNet ("hot tub", "caravan", "ukulele"). */
export function isPossessionNoun(phrase: string): boolean {
  return heads(phrase).some((head) => isKindOf(head, POSSESSION_CLASSES));
}

/** The animal a pet phrase names ("a bulldog" -> "bulldog"), when WordNet knows it only as a pet kind of animal. */
export function wordnetPetKind(phrase: string): string | undefined {
  return heads(phrase).find((head) => isKindOf(head, PET_SENSE_CLASSES));
}
