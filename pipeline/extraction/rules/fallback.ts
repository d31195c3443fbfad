import { PREDICATES, toPredicateName } from '../taxonomy.js';
import { readVerb } from './inflection.js';
import { extractObjects } from './objects.js';
import type { Token, VerbPhrase } from './verb-phrase.js';

/**
 * Relations outside the taxonomy are kept, not dropped: "I volunteer at the Humane Society" ->
 * `volunteers_at` (family `other`, predicate_raw as written). Only clear relations qualify: a content
 * verb that the taxonomy does not know (not a light or mental verb either, which say little on their own),
 * an optional preposition, and a noun phrase that names something (capitalised, or after a preposition a
 * plain noun phrase of at most three words). The caller keeps it to the user and named people.
 * The predicate is the verb's third-person form plus the preposition, like the taxonomy's own names.
 */

const LIGHT_VERBS = new Set(
  ('be have do get make go come take give put keep let set think feel know say tell ask want need try seem look sound mean hope wish wonder ' +
    'guess believe suppose consider decide choose agree disagree realize realise notice happen see hear find call help start stop begin finish ' +
    'check plan change remember forget miss spend send bring show text email message reply post share leave turn lose win break hurt die pass ' +
    'hold fix sleep wake stay watch read write cook eat drink run walk sit stand wear cut let buy sell pay save open close apply book celebrate ' +
    'meet love like hate enjoy prefer use play learn study work live move visit travel fly drive attend join quit marry date')
    .split(' '),
);
/** Every verb the taxonomy's surfaces use, in any form ("be born in" -> bear, "be diagnosed with" -> diagnose). */
const TAXONOMY_LEMMAS = new Set(
  PREDICATES.flatMap((p) => p.surfaces.flatMap((s) => s.phrase.split(' '))).flatMap((word) => [word, ...readVerb(word).map((r) => r.lemma)]),
);
/** True when the taxonomy's surfaces use this verb in any form. */
export const isTaxonomyVerb = (lemma: string) => TAXONOMY_LEMMAS.has(lemma);

// Not "with": company ("hiking with friends") is seldom a lasting relation.
const PREPOSITIONS = new Set(['at', 'in', 'for', 'on', 'to', 'from', 'about', 'into']);

function thirdPerson(lemma: string): string {
  if (/(?:s|x|z|ch|sh|o)$/.test(lemma)) return `${lemma}es`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  return `${lemma}s`;
}

export interface UnmappedRelation {
  predicate: string;
  objects: string[];
  raw: string;
}

/** A relation the taxonomy has no predicate for, or undefined when the clause states none clearly. */
export function unmappedRelation(vp: VerbPhrase, tokens: Token[]): UnmappedRelation | undefined {
  const lemma = vp.readings[0]?.lemma;
  if (!lemma || lemma.includes(' ') || LIGHT_VERBS.has(lemma) || vp.hedged || vp.wants) return undefined;
  // A taxonomy verb that matched no surface is a parse miss ("diagnosed with" without "be"), not a new relation.
  if (TAXONOMY_LEMMAS.has(lemma)) return undefined;
  const following = tokens.slice(vp.mainIndex + 1);
  const preposition = following[0] && PREPOSITIONS.has(following[0].lower) ? following[0].lower : undefined;
  const objectTokens = preposition ? following.slice(1) : following;
  if (objectTokens.length === 0 || /^(?:me|you|him|her|them|us|it|this|that|myself|out|up|off|down|back|away|over|around)$/.test(objectTokens[0].lower)) return undefined;
  const objects = extractObjects(objectTokens.map((t) => t.raw).join(' '), { objectClass: 'any', predicate: 'other', multi: false })
    .filter((o) => !/\d|\band\b/.test(o) && (/^[A-Z]/.test(o) || (preposition !== undefined && o.split(/\s+/).length <= 3)));
  if (objects.length === 0) return undefined;
  const raw = tokens.slice(0, vp.mainIndex + 1 + (preposition ? 1 : 0)).map((t) => t.raw).join(' ');
  return { predicate: toPredicateName(`${thirdPerson(lemma)}${preposition ? ` ${preposition}` : ''}`), objects, raw };
}
