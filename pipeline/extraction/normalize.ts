import { amountKey, parseAmount } from './amount.js';
import { ANY_OBJECT } from './taxonomy.js';

/**
 * Normalisation used to compare facts: objects for confirmation, subjects for
 * stage 1 look-ups. Display values stay as written; only comparison keys are normalised.
 */

const LEADING_DETERMINERS = /^(?:(?:the|a|an|my|our|his|her|their|some|this|that|these|those)\s+)+/;
/** Descriptors that do not change the referent: "the city of Munich" is "Munich". */
const PLACE_DESCRIPTORS = /^(?:(?:city|town|village|state|country|republic|kingdom|island|region|province|county) of\s+)/;

/**
 * Comparison key for a fact object: Unicode-folded, lower-cased, without
 * leading articles/possessives, "the city of", punctuation (except the symbols
 * that carry meaning in "c++", "c#", "$85,000"), digit grouping commas and surplus whitespace.
 * "Munich" == "munich" == "the city of Munich" == " Munich. "
 * Money amounts compare by value, currency and period: "£1,350 a month" == "1350 GBP/month" (amount.ts).
 */
export function normalizeObject(value: string): string {
  if (value.trim() === ANY_OBJECT) return ANY_OBJECT;
  const amount = parseAmount(value);
  if (amount) return amountKey(amount);
  let s = value
    .normalize('NFKC')
    // "beagle (Biscuit)": a name in parentheses tells the reader which one; it is no part of what it is.
    .replace(/\s*\([^)]*\)/g, ' ')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/&/g, ' and ')
    .replace(/(\d),(?=\d{3}\b)/g, '$1')
    .replace(/'s\b/g, 's')
    .replace(/[^\p{L}\p{N}+#$€£%.' -]+/gu, ' ')
    .replace(/(?<!\d)\.|\.(?!\d)/g, ' ')
    .replace(/'/g, '')
    .replace(/\s*-\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  s = s.replace(LEADING_DETERMINERS, '').replace(PLACE_DESCRIPTORS, '');
  return s.replace(LEADING_DETERMINERS, '').trim();
}

export function objectsEqual(a: string, b: string): boolean {
  return normalizeObject(a) === normalizeObject(b);
}

/** Comparison key for a subject: "user", "Anna" -> "anna", "user's sister" -> "user's sister". */
export function subjectKey(subject: string): string {
  return subject
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}
