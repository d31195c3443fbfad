import { stemmer } from 'stemmer';

/**
 * The words of a keyword query: lower-cased letter/digit runs (accents removed), without English
 * grammar words, the pieces contractions and possessives leave ("spouse's" is "spouse" and "s",
 * "didn't" is "didn" and "t"), or words the stemmer turns into a grammar word ("Inês" is indexed as
 * "in"), each once, at most MAX_TERMS. Shared by both keyword backends so a query means the same
 * words on SQLite FTS5 and Elasticsearch.
 */
const GRAMMAR_WORDS = new Set(
  `a about after again all am an and any are as at be because been before being between both but by can could did do does
  doing during each few for from further had has have having he her here hers him his how i if in into is it its just me
  more most my no nor not now of off on once only or other our ours out over own same she should so some such than that the
  their theirs them then there these they this those through to too under until up very was we were what when where which
  while who whom why will with would you your yours
  s t d ll m re ve don didn doesn isn aren wasn weren hasn haven hadn couldn shouldn wouldn mustn needn`.split(/\s+/),
);
const MAX_TERMS = 32;

export function keywordTerms(query: string): string[] {
  const words = query.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => !GRAMMAR_WORDS.has(w) && !GRAMMAR_WORDS.has(termStem(w))))].slice(0, MAX_TERMS);
}

/** Porter stem of a lower-case word, as FTS5's `porter` tokenizer and Elasticsearch's `english` analyzer index it. */
export const termStem = (word: string) => stemmer(word);

/**
 * A text as the space-separated Porter stems of its words (grammar words kept, as BM25 indexes them).
 * The Elasticsearch keyword field stores this under the core `standard` analyzer, so stemming does not
 * depend on the node's analysis modules and matches the embedded FTS5 `porter` tokenizer.
 */
export function stemmedText(text: string): string {
  const words = text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map(termStem).join(' ');
}
