import type { ExtractedFact } from '../../types.js';
import { normalizeObject } from '../normalize.js';

/**
 * One value replacing another in a single statement, whatever the relation:
 *  - a thing moved between providers or kinds: "moved our mortgage from Nationwide to Halifax",
 *    "switched my phone contract from EE to Three" -> "I no longer have the Nationwide mortgage",
 *    "I have a Halifax mortgage" (the clause parser then picks the predicate from the noun);
 *  - "instead of" / "rather than": "I drink oat milk instead of cow's milk now" also denies the
 *    replaced value, under the predicate the new value was read with.
 */

const LEAD = String.raw`^(?:[\p{L}-]+\s*:\s*)?(?:(?:I|we|the\s+user|user)\s+(?:have\s+|has\s+)?)?(?:just\s+|finally\s+|recently\s+)?`;
const CHANGE_VERB = String.raw`(?:moved|switched|changed|transferred|swapped|took|taken)`;
const NAME = String.raw`(\p{Lu}[\p{L}\d&'’-]*(?:\s+\p{Lu}[\p{L}\d&'’-]*)*)`;
const THING_FROM_TO = new RegExp(String.raw`${LEAD}${CHANGE_VERB}\s+(?:my|our|the|his|her|their)\s+((?:[\p{Ll}-]+\s+){0,2}[\p{Ll}-]+)\s+(?:over\s+)?from\s+${NAME}\s+to\s+${NAME}`, 'u');

/** "moved our mortgage from Nationwide to Halifax": the statements of the end and the start. */
export function restateMovedThing(body: string): string[] | undefined {
  const m = THING_FROM_TO.exec(body.replace(/^(?:Finally|Just|Recently|Moved|Switched|Changed|Transferred|Swapped|Took)\b/, (w) => w.toLowerCase()));
  if (!m) return undefined;
  const [, thing, from, to] = m;
  return [`I no longer have the ${from} ${thing}`, `I have a ${to} ${thing}`];
}

const INSTEAD = /^(.*?)\s+(?:instead\s+of|rather\s+than|in\s+place\s+of)\s+(?:the\s+|my\s+|our\s+|a\s+|an\s+)?([\p{L}\d][\p{L}\d'’ -]*?)\s*(?:\s(?:now|these\s+days|nowadays|any\s?more|from\s+now\s+on)\b.*)?[.!]*$/iu;
/** Predicates where "A rather than B" is a comparison of tastes, not an ending. */
const COMPARISONS = new Set(['prefers', 'likes', 'dislikes', 'wants_to', 'wants_to_visit']);

/**
 * Denials of the values an "instead of" replaces, for facts read from `sentence`: the fact whose object
 * the first part names gets a denied copy for the replaced value.
 */
export function replacedValues(sentence: string, facts: ExtractedFact[]): ExtractedFact[] {
  const m = INSTEAD.exec(sentence.trim());
  if (!m) return [];
  const [, said, replacedText] = m;
  const replaced = replacedText.trim();
  const saidKey = normalizeObject(said);
  if (replaced === '' || replaced.split(/\s+/).length > 4) return [];
  const denials: ExtractedFact[] = [];
  for (const fact of facts) {
    if (fact.negated || fact.tense !== 'current' || COMPARISONS.has(fact.predicate)) continue;
    if (!saidKey.includes(normalizeObject(fact.object))) continue;
    if (normalizeObject(replaced) === normalizeObject(fact.object)) continue;
    denials.push({ ...fact, object: replaced, negated: true, predicateRaw: `instead of`, validTo: null });
  }
  return denials;
}
