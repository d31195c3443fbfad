import type { ExtractedFact } from '../../types.js';
import { normalizeObject, subjectKey } from '../normalize.js';
import { ANY_OBJECT } from '../taxonomy.js';

/**
 * "I was a barista at Costa for 3 years but I quit in January", "Laid off today. 9 years at Wells Fargo",
 * "retired last year from the post office": the ending verb has no object ("quit", "laid off", "retired")
 * and yields `works_at *` negated, but the same message names the employer. When exactly one employer is
 * named for that subject, the ending is about it: the `*` becomes the employer, and a past `works_at` of
 * the same employer from the same message is dropped (the ending states it). Several employers, or none,
 * leave the facts as they are.
 */

const NAME = String.raw`(\p{Lu}[\p{L}&'’.-]*(?:\s+(?:of\s+)?\p{Lu}[\p{L}&'’.-]*)*)`;
const STINT_AT = new RegExp(String.raw`\b(?:years?|yrs?|months?|contract|job|stint|time|career)\s+(?:at|with)\s+(?:the\s+)?${NAME}`, 'gu');
const ENDED_FROM = /\b(?:retired|retiring|laid off|let go|fired|made redundant|resigned|quit|left)\b[^.,;!?]{0,20}?\bfrom\s+(?:the\s+)?([\p{L}&'’.-]+(?:\s+[\p{L}&'’.-]+){0,2}?)(?=\s+(?:after|in|last|this|on|for|at|as|when|because)\b|[,.;!?)]|$)/giu;

function employersNamed(content: string): string[] {
  const found: string[] = [];
  for (const m of content.matchAll(STINT_AT)) found.push(m[1]);
  for (const m of content.matchAll(ENDED_FROM)) found.push(m[1]);
  return found;
}

export function nameEndedEmployer(facts: ExtractedFact[], content: string): ExtractedFact[] {
  const endings = facts.filter((f) => f.predicate === 'works_at' && f.negated && f.object === ANY_OBJECT);
  if (endings.length === 0) return facts;
  const drop = new Set<ExtractedFact>();
  for (const ending of endings) {
    const key = subjectKey(ending.subject);
    const stated = facts.filter((f) => f.predicate === 'works_at' && f.object !== ANY_OBJECT && subjectKey(f.subject) === key).map((f) => f.object);
    const named = ending.subject === 'user' ? employersNamed(content) : [];
    const distinct = new Map<string, string>();
    for (const o of [...stated, ...named]) if (!distinct.has(normalizeObject(o))) distinct.set(normalizeObject(o), o);
    if (distinct.size !== 1) continue;
    const [[norm, employer]] = [...distinct];
    // Already denied by name: the anonymous ending adds nothing.
    if (facts.some((f) => f !== ending && f.predicate === 'works_at' && f.negated && subjectKey(f.subject) === key && normalizeObject(f.object) === norm)) { drop.add(ending); continue; }
    ending.object = employer;
    for (const f of facts) if (f.predicate === 'works_at' && !f.negated && f.tense === 'past' && subjectKey(f.subject) === key && normalizeObject(f.object) === norm) drop.add(f);
  }
  return facts.filter((f) => !drop.has(f));
}
