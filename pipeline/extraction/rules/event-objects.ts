import { readVerb } from './inflection.js';

/**
 * Event and appointment objects are the event, without when or where it happens: "custody hearing on
 * the 8th" -> "custody hearing", "coldplay concert at wembley" -> "coldplay concert", "Comic-Con in San
 * Diego" -> "Comic-Con", and without a verb the phrase swallowed ("trip to Cabo called (off)").
 */

const WHEN = String.raw`(?:on|at|this|next|last|in|from|by|until|till|before|after)\s+(?:the\s+)?(?:\d|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|tomorrow|tonight|today|weekend|week|month|year|morning|afternoon|evening|night|noon|midday|first|second|third|fourth|fifth|\w+teenth|twentieth|thirtieth)`;
const TRAILING_WHEN = new RegExp(String.raw`\s+${WHEN}.*$`, 'i');
/** Where: a venue after "at", a named place after "in". */
const TRAILING_WHERE = /\s+(?:at\s+.+|in\s+(?:the\s+)?[A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)*)$/u;

/** The event as a clean noun phrase. */
export function cleanEventObject(phrase: string): string {
  let s = phrase.trim().replace(TRAILING_WHEN, '').replace(TRAILING_WHERE, '').trim();
  // "Cabo called", "Venice got": a finite verb ends the phrase.
  const words = s.split(/\s+/);
  while (words.length > 1 && /^[a-z]+$/.test(words[words.length - 1]) && readVerb(words[words.length - 1]).some((r) => r.form === 'past' || r.form === 'participle')) words.pop();
  s = words.join(' ');
  return s || phrase.trim();
}
