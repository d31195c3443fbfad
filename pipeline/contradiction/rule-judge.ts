import type { CandidateFact, ContradictionDecision, ContradictionJudge, IncomingFact } from '../types.js';
import { candidatePredicates, isSingleValued, oppositeOf, ANY_OBJECT } from '../extraction/taxonomy.js';
import { normalizeObject, subjectKey } from '../extraction/normalize.js';

/**
 * Deterministic contradiction rules (stage 2). Pure: same input, same decision.
 *
 * Order of the rules:
 *  1. negated fact       -> retract the live facts it denies (same predicate and object,
 *                           or any object for ANY_OBJECT) that are not newer than it;
 *  2. past-tense fact    -> never invalidates another value; if it ends a live copy of the
 *                           same value, retract that copy, else store it closed at its end;
 *  3. same normalised object as a live fact -> confirm the oldest such fact;
 *  4. conflicts: a single-valued predicate with another object, or the opposite predicate
 *     with the same object. If any conflicting fact is newer (validFrom, then seq), the
 *     incoming fact is history: insert_closed at the earliest newer one's validFrom.
 *     Otherwise insert and invalidate every conflicting fact.
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

export function decideByRules(incoming: IncomingFact, candidates: CandidateFact[]): ContradictionDecision {
  const live = relevantCandidates(incoming, candidates);
  const object = normalizeObject(incoming.object);
  const samePredicate = live.filter((c) => c.predicate === incoming.predicate);
  const sameObject = samePredicate.filter((c) => normalizeObject(c.object) === object);

  if (incoming.negated) {
    const denied = object === ANY_OBJECT ? samePredicate : sameObject;
    return { kind: 'retract', invalidate: ids(denied.filter((c) => compareSupersedeOrder(c, incoming) <= 0)) };
  }

  if (incoming.tense === 'past') {
    const endedAt = incoming.validTo ?? incoming.validFrom;
    const endedCopies = sameObject.filter((c) => c.validFrom.getTime() <= endedAt.getTime());
    if (endedCopies.length > 0) return { kind: 'retract', invalidate: ids(endedCopies) };
    return { kind: 'insert_closed', closedAt: endedAt };
  }

  if (sameObject.length > 0) {
    const oldest = [...sameObject].sort(compareSupersedeOrder)[0];
    return { kind: 'confirm', factId: oldest.id };
  }

  const opposite = oppositeOf(incoming.predicate);
  const conflicts = live.filter(
    (c) =>
      (c.predicate === incoming.predicate && isSingleValued(incoming.predicate)) ||
      (opposite !== undefined && c.predicate === opposite && normalizeObject(c.object) === object),
  );
  const newer = conflicts.filter((c) => compareSupersedeOrder(c, incoming) > 0);
  if (newer.length > 0) {
    const closedAt = new Date(Math.min(...newer.map((c) => c.validFrom.getTime())));
    return { kind: 'insert_closed', closedAt };
  }
  return { kind: 'insert', invalidate: ids(conflicts) };
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
