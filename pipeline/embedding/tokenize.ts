/**
 * Text normalisation and tokenisation shared by the word-vector and the
 * character n-gram features.
 */

// Latin/Greek/Cyrillic accents only: other scripts' marks (e.g. Japanese dakuten) change the letter.
const COMBINING_MARKS = /[\u0300-\u036f]+/g;
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/g;
// Letters/digits, optionally joined by an inner apostrophe, hyphen, dot or slash: "don't", "e-mail", "3.5", "24/7".
const TOKEN = /[\p{L}\p{N}]+(?:['\-./][\p{L}\p{N}]+)*/gu;

/** NFKC, lower case, typographic apostrophes unified, accents removed ("Café" -> "cafe"). */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, "'").normalize('NFD').replace(COMBINING_MARKS, '').normalize('NFC');
}

/** Tokens of already-normalised text, in order. */
export function tokenize(normalized: string): string[] {
  return normalized.match(TOKEN) ?? [];
}

/**
 * Forms under which a token may appear in the word-vector vocabulary, used when the
 * token itself is missing: "max's" -> ["max"], "doesn't" -> ["does", "not"],
 * "dog-friendly" -> ["dog", "friendly"]. Returns [] when there is nothing to try.
 */
export function vocabularyFallbacks(token: string): string[] {
  if (token.endsWith("n't")) return [token.slice(0, -3), 'not'];
  const apostrophe = token.indexOf("'");
  if (apostrophe > 0) return [token.slice(0, apostrophe)];
  if (/[-./]/.test(token)) return token.split(/[-./]+/).filter(Boolean);
  return [];
}
