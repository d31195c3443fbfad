import { classesBySense } from '../noun-classes.js';
import { isTaxonomyVerb } from './fallback.js';
import { toGerund } from './inflection.js';
import type { Token, VerbPhrase } from './verb-phrase.js';

/**
 * An activity verb used without an object, in the habitual present, is a hobby: "I knit", "I surf most
 * weekends", "I don't surf" (denied). WordNet decides what counts as an activity (a sport, craft, art,
 * recreation), not a list; "I paint houses" has an object and stays out.
 */

const ACTIVITY_CLASSES = ['sport', 'diversion', 'recreation', 'exercise', 'athletics', 'needlework', 'handicraft', 'art', 'music', 'gardening', 'dancing'];
/** What may follow the verb: frequency, time and place adjuncts, not an object. */
const ADJUNCT_START = /^(?:every|each|on|at|in|most|a|twice|once|daily|weekly|regularly|sometimes|often|constantly|competitively|professionally|socially|now|again|too|as|for|with|when|whenever|\d)/i;

export interface ActivityHabit {
  predicate: string;
  objects: string[];
  raw: string;
}

export function activityHabit(vp: VerbPhrase, tokens: Token[]): ActivityHabit | undefined {
  if (vp.time !== 'present' || vp.hedged || vp.wants || vp.ability) return undefined;
  const lemma = vp.readings[0]?.lemma;
  // Taxonomy verbs ("play", "do") have their own predicates; used without an object they say too little.
  if (!lemma || lemma.includes(' ') || isTaxonomyVerb(lemma)) return undefined;
  const next = tokens[vp.mainIndex + 1];
  if (next && !ADJUNCT_START.test(next.lower)) return undefined;
  const gerund = toGerund(lemma);
  const isActivity = classesBySense(gerund, 2).some((found) => ACTIVITY_CLASSES.some((c) => found.has(c)));
  return isActivity ? { predicate: 'hobby', objects: [gerund], raw: tokens.slice(0, vp.mainIndex + 1).map((t) => t.raw).join(' ') } : undefined;
}
