import { ACQUAINTANCES, EX_RELATIONS, RELATIONS } from '../rules/lexicon.js';

export type NamedRelation = { predicate: string; negated: boolean } | 'acquaintance';

/** "my brother", "our old flatmate", "my ex-husband" ending right before `start`, read with the rule lexicon. */
const BEFORE = /\b(?:my|our|user['’]s|the user['’]s)\s+((?:[\p{L}-]+\s+){0,2}[\p{L}-]+)[\s,(]*$/iu;

/**
 * What the words before a name say about the user's relation to that person: the relation word names the
 * people predicate more reliably than the tagger's label does ("my housemate Dee" is a roommate, whatever
 * the tagger's label was), and a neighbour, doctor or coach is nobody's relative.
 */
export function relationBefore(text: string, start: number): NamedRelation | undefined {
  const match = BEFORE.exec(text.slice(Math.max(0, start - 40), start));
  if (!match) return undefined;
  const words = match[1].toLowerCase().split(/\s+/);
  for (let take = Math.min(3, words.length); take >= 1; take--) {
    const phrase = words.slice(-take).join(' ');
    const ex = EX_RELATIONS[phrase];
    if (ex) return ex;
    const relation = RELATIONS[phrase];
    if (relation) return { predicate: relation.predicate, negated: false };
    if (ACQUAINTANCES.has(phrase)) return 'acquaintance';
  }
  return undefined;
}
