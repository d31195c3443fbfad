import nlp from 'compromise';
import { readVerb } from './inflection.js';

/**
 * Word classes from compromise's lexicon, for words outside the extractor's own verb list.
 * Cached: the same few words recur in chat.
 */

const verbCache = new Map<string, boolean>();

/** True when `phrase` after "going to" starts with a verb ("vomit", "snap", "sit here"), not a place ("paris", "peak district"). */
export function startsWithBareVerb(phrase: string): boolean {
  const w = phrase.toLowerCase().split(/\s+/).slice(0, 3).join(' ');
  if (readVerb(w.split(' ')[0]).some((r) => r.form === 'base') && !w.includes(' ')) return true;
  let known = verbCache.get(w);
  if (known === undefined) {
    const doc = nlp(`I am going to ${w}`);
    const next = doc.match('going to . [.]', 0);
    // "peak district": a verb-looking first word followed by a noun is a name; "sit here" is not.
    const nounFollows = next.has('#Noun') && !next.has('#Pronoun') && !next.has('(here|there|home|it|this|that)');
    known = doc.match('going to [.]', 0).has('#Verb') && !nounFollows;
    if (verbCache.size > 5000) verbCache.clear();
    verbCache.set(w, known);
  }
  return known;
}

const adjectiveCache = new Map<string, boolean>();

/** True when `word` is an adjective rather than a noun ("careful", "tidy"; not "tea", "beach"). */
export function isAdjective(word: string): boolean {
  const w = word.toLowerCase();
  let known = adjectiveCache.get(w);
  if (known === undefined) {
    const doc = nlp(`a ${w} thing`).match('a [.] thing', 0);
    known = doc.has('#Adjective') && !doc.has('#Noun');
    if (adjectiveCache.size > 5000) adjectiveCache.clear();
    adjectiveCache.set(w, known);
  }
  return known;
}
