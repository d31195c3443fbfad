import type { CandidateFact, ContradictionDecision, ContradictionJudge, IncomingFact } from '../types.js';
import { candidatePredicates, completes, endsAlong, isSingleValued, oppositeOf, ANY_OBJECT } from '../extraction/taxonomy.js';
import { normalizeObject, subjectKey } from '../extraction/normalize.js';

/**
 * Deterministic contradiction rules (stage 2). Pure: same input, same decision.
 *
 * Facts live on a timeline: a fact is valid from `validFrom` until its `invalidAt`.
 * A single-valued predicate has at most one valid value at any instant.
 *
 * Order of the rules:
 *  1. negated fact -> retract the facts it denies (same predicate and object, or any object for
 *     ANY_OBJECT) that started before it; a denied plan that has not started is cancelled the same way,
 *     except by an ANY_OBJECT denial, which speaks of the present ("no pets now");
 *  2. past-tense fact -> never ends another value; if it ends a live copy of the same value, retract
 *     that copy, else store it closed at its stated end (or where the next value starts);
 *  3. same object as a plan that has not started, restated with another date (or as happening now)
 *     -> reschedule: cancel the plan, then judge again;
 *  4. same normalised object as a live fact -> confirm the oldest such fact;
 *  5. conflicts: a single-valued predicate with another object, or the opposite predicate with the
 *     same object. Conflicts that precede the new fact end where it starts; if one follows it (a later
 *     stated date, e.g. a planned move), the new fact ends where that one starts.
 *
 * "Precedes" is validFrom order, then write sequence, except that a fact whose validFrom was not
 * stated (it is only the time it was recorded) precedes any later statement about the present:
 * "I live in Berlin" then, a week later, "I moved to Munich last month" makes Munich current.
 */
export class RuleContradictionJudge implements ContradictionJudge {
  async decide(incoming: IncomingFact, candidates: CandidateFact[]): Promise<ContradictionDecision> {
    return decideByRules(incoming, candidates);
  }
}

/** Negative when `a` precedes `b` in supersede order: validFrom first, then write sequence. */
export function compareSupersedeOrder(a: { validFrom: Date; seq: number }, b: { validFrom: Date; seq: number }): number {
  const byTime = a.validFrom.getTime() - b.validFrom.getTime();
  return byTime !== 0 ? byTime : a.seq - b.seq;
}

const recordedAt = (f: IncomingFact) => (f.referenceTime ?? f.validFrom).getTime();

/** True when the live fact `c` comes before the incoming fact on the timeline. */
export function precedes(c: CandidateFact, incoming: IncomingFact): boolean {
  // An undated fact's validFrom is when it was recorded; a later statement about the present outranks it.
  if (c.validFromStated === false && incoming.tense !== 'past' && recordedAt(incoming) > c.validFrom.getTime()) return true;
  // Ties (same date, same message) go to the later statement: "she works at Fiat ... she just switched to Ferrari".
  return compareSupersedeOrder(c, incoming) <= 0;
}

/** A plan that has not started when the incoming statement was made. */
const notStarted = (c: CandidateFact, incoming: IncomingFact) => incoming.referenceTime !== undefined && c.validFrom.getTime() > incoming.referenceTime.getTime();

const EVENT_PREDICATES = new Set(['attending', 'has_appointment', 'trip_to']);
const tokens = (s: string) => new Set(normalizeObject(s).replace(/\b(s)\b/g, ' ').split(' ').filter((w) => w && !['appointment', 'the', 'my', 'a'].includes(w)));

/** Same object; events also match when one name's words contain the other's ("Ana's wedding", "cousin Ana's wedding"). */
export function sameObject(predicate: string, a: string, b: string): boolean {
  const na = normalizeObject(a);
  const nb = normalizeObject(b);
  if (na === nb) return true;
  if (!EVENT_PREDICATES.has(predicate)) return false;
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.size === 0 || tb.size === 0) return false;
  const [small, large] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  return [...small].every((w) => large.has(w) || large.has(`${w}s`) || (w.endsWith('s') && large.has(w.slice(0, -1))));
}

/**
 * A denial may name the thing more briefly than the statement it ends: "left Guy's" ends
 * "works at Guy's Hospital", "sold the Golf" ends "owns VW Golf". Every word of the shorter name
 * must appear in the longer one.
 */
export function namesSameThing(stored: string, denied: string): boolean {
  const a = normalizeObject(stored);
  const b = normalizeObject(denied);
  if (a === b) return true;
  // "Biscuit died" ends "beagle (Biscuit)": the name the stored object carries.
  const name = /\(([^)]+)\)/.exec(stored)?.[1];
  if (name !== undefined && normalizeObject(name) === b) return true;
  const words = (s: string) => s.split(' ').filter((w) => w && !['the', 'my', 'a', 'an', 'our'].includes(w));
  const storedWords = new Set(words(a).map(singular));
  const deniedWords = words(b).map(singular);
  // "physio appointment" names "physiotherapy appointment": a word of five letters or more may be a stored word's start.
  const named = (w: string) => storedWords.has(w) || (w.length >= 5 && [...storedWords].some((s) => s.startsWith(w)));
  if (deniedWords.length > 0 && deniedWords.every(named)) return true;
  // "sold the Leeds flat" also ends a plain "owns flat": the stored name is the denied one's head.
  const storedList = words(a).map(singular);
  const deniedSet = new Set(deniedWords);
  return storedList.length > 0 && storedList.at(-1) === deniedWords.at(-1) && storedList.every((w) => deniedSet.has(w));
}

const singular = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);

const sameDay = (a: Date, b: Date) => a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10);

export function decideByRules(incoming: IncomingFact, candidates: CandidateFact[]): ContradictionDecision {
  const live = relevantCandidates(incoming, candidates);
  const object = normalizeObject(incoming.object);
  const samePredicate = live.filter((c) => c.predicate === incoming.predicate);
  const sameObj = samePredicate.filter((c) => sameObject(incoming.predicate, c.object, incoming.object));

  if (incoming.negated) {
    // "sold the Golf" ends "owns VW Golf" and, along with it, "drives VW Golf".
    const ended = live.filter((c) => c.predicate === incoming.predicate || endsAlong(incoming.predicate).includes(c.predicate));
    // "no pets now" speaks of the present: it ends every live pet but cancels no puppy still to come.
    if (object === ANY_OBJECT) return { kind: 'retract', invalidate: ids(samePredicate.filter((c) => !notStarted(c, incoming) && (precedes(c, incoming) || compareSupersedeOrder(c, incoming) <= 0))) };
    const denied = ended.filter((c) => namesSameThing(c.object, incoming.object));
    return { kind: 'retract', invalidate: ids(denied.filter((c) => precedes(c, incoming) || compareSupersedeOrder(c, incoming) <= 0 || notStarted(c, incoming))) };
  }

  const opposite = oppositeOf(incoming.predicate);
  const conflicts = live.filter(
    (c) =>
      (c.predicate === incoming.predicate && isSingleValued(incoming.predicate) && !sameObject(incoming.predicate, c.object, incoming.object)) ||
      (opposite !== undefined && c.predicate === opposite && normalizeObject(c.object) === object) ||
      // "back from Iceland" (visited) completes the trip to Iceland that was planned.
      (completes(incoming.predicate).includes(c.predicate) && sameObject(c.predicate, c.object, incoming.object) && c.validFrom.getTime() <= incoming.validFrom.getTime()),
  );

  if (incoming.tense === 'past') {
    const endedAt = incoming.validTo ?? incoming.validFrom;
    const endedCopies = sameObj.filter((c) => c.validFrom.getTime() <= endedAt.getTime());
    if (endedCopies.length > 0) return { kind: 'retract', invalidate: ids(endedCopies) };
    if (incoming.validTo) return { kind: 'insert_closed', closedAt: incoming.validTo };
    // No stated end: it lasted until the next value started, if that is known.
    const next = conflicts.filter((c) => c.validFrom.getTime() > incoming.validFrom.getTime()).map((c) => c.validFrom.getTime());
    return { kind: 'insert_closed', closedAt: next.length > 0 ? new Date(Math.min(...next)) : incoming.validFrom };
  }

  const stated = incoming.validFromStated !== false;
  const moved = sameObj.filter((c) => notStarted(c, incoming) && (stated ? !sameDay(c.validFrom, incoming.validFrom) : incoming.tense !== 'planned'));
  if (moved.length > 0) return { kind: 'reschedule', cancel: ids(moved) };

  if (sameObj.length > 0) {
    const oldest = [...sameObj].sort(compareSupersedeOrder)[0];
    return { kind: 'confirm', factId: oldest.id };
  }

  const before = conflicts.filter((c) => precedes(c, incoming));
  const after = conflicts.filter((c) => !precedes(c, incoming)).sort(compareSupersedeOrder);
  if (after.length > 0) {
    const first = after[0];
    // Entirely before a later value, with nothing earlier to end: history recorded late.
    if (before.length === 0 && !notStarted(first, incoming)) return { kind: 'insert_closed', closedAt: first.validFrom };
    return { kind: 'insert', invalidate: ids(before), closedAt: first.validFrom, closedBy: first.id };
  }
  return { kind: 'insert', invalidate: ids(before) };
}

/** Stage 1 should already filter; re-checking keeps the judge safe against a looser query. */
function relevantCandidates(incoming: IncomingFact, candidates: CandidateFact[]): CandidateFact[] {
  const predicates = new Set(candidatePredicates(incoming.predicate));
  const subject = subjectKey(incoming.subject);
  return candidates.filter((c) => predicates.has(c.predicate) && subjectKey(c.subject) === subject);
}

function ids(facts: CandidateFact[]): string[] {
  return facts.map((f) => f.id);
}
