import { BE_WORDS } from './implicit-subject.js';
import { readVerb } from './inflection.js';

/**
 * Chat statements of a change or a state that leave out "I" (and "have"), rewritten with them:
 *  - a perfect without its auxiliary: "Also taken up woodturning", "just given up sugar", "begun Italian lessons"
 *    -> "I have taken up woodturning" (only participles that cannot be past forms, so "Moved to Leeds" stays as it is);
 *  - a few state verbs in the base form with the object they take: "Drive a Ford Focus, it's fine",
 *    "Live in Hull now", "Work at a bakery". An imperative to the assistant names the assistant or
 *    the user as its object ("drive me to ..."), which these never match.
 */

const LEADING = /^(?:(?:also|just|recently|finally|now|since|then|and)\s+)+/i;
const BASE_STATE = /^(?:(?:drive|own)\s+(?:a|an|the|my|our)\s+\p{Lu}|live\s+in\s+\p{Lu}|work\s+(?:at|for)\s+(?:a|an|the\s+)?\p{L})/u;

export function restateDroppedSubject(body: string): string[] | undefined {
  const lead = LEADING.exec(body)?.[0] ?? '';
  const rest = body.slice(lead.length);
  const first = /^([A-Za-z]+)\b/.exec(rest)?.[1]?.toLowerCase();
  if (!first) return undefined;
  const readings = readVerb(first);
  const participleOnly = readings.some((r) => r.form === 'participle') && !readings.some((r) => r.form === 'past' || r.form === 'base');
  // "born in Lagos", "raised in Leeds" leave out "was", not "have" (implicit-subject.ts reads them).
  if (participleOnly && first !== 'been' && !BE_WORDS.has(first) && rest.split(/\s+/).length >= 2) return [`I have ${lead}${lowerFirst(rest)}`];
  if (BASE_STATE.test(lowerFirst(rest))) return [`I ${lead}${lowerFirst(rest)}`];
  return undefined;
}

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
