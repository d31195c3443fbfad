/**
 * A deliberately strict, embedder-independent notion of "shares a content word",
 * used to check that paraphrase queries really have no word in common with their
 * target memory. Two words match when equal, equal up to a plural "s", or when
 * both are at least 5 letters long and start with the same 5 letters
 * ("allergic"/"allergies", "married"/"marrying").
 */

const FUNCTION_WORDS = new Set(
  `a about after all also am an and any are as at be been being but by can can't could did do does doing
  don't for from had has have having he her hers him his how i i'm i've if in into is it it's its me my
  no not of on or our she so than that the their them then there these they this those to too up us was
  we we're were what what's when where which who whom why will with would you your`.split(/\s+/),
);

export function contentWords(text: string): string[] {
  const words = text.toLowerCase().replace(/[\u2018\u2019]/g, "'").match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
  return words.filter((word) => !FUNCTION_WORDS.has(word)).map((word) => word.replace(/'s$/, ''));
}

export function wordsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.replace(/s$/, '') === b.replace(/s$/, '')) return true;
  return a.length >= 5 && b.length >= 5 && a.slice(0, 5) === b.slice(0, 5);
}

/** Content words of `query` that also occur (loosely) in `text`. */
export function sharedContentWords(query: string, text: string): string[] {
  const textWords = contentWords(text);
  return contentWords(query).filter((word) => textWords.some((other) => wordsMatch(word, other)));
}
