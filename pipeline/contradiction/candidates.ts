import type { FactRecord, UserScope } from '../../storage/types.js';
import type { CandidateFact, ContradictionDecision, ContradictionJudge } from '../types.js';
import type { PipelineDeps } from '../write/stages.js';
import type { CandidateDraft, DecisionDraft, FactDraft } from '../write/types.js';

function toCandidate(f: FactRecord): CandidateDraft {
  return { id: f.id, subject: f.subject, predicate: f.predicate, object: f.object, validFrom: f.validFrom, seq: f.seq, validFromStated: f.validFromStated, invalidAt: f.invalidAt };
}

/** A cancelled plan is stored closed at its own start: valid at no instant. */
export const neverValid = (f: FactRecord) => f.invalidAt !== null && Date.parse(f.invalidAt) <= Date.parse(f.validFrom);

/**
 * Facts in the same user scope with the same subject and the predicate or an opposite that are still
 * open where the new fact starts: live ones, and ones a later fact (a plan) will end after that instant.
 */
export async function findCandidates(
  deps: Pick<PipelineDeps, 'store' | 'rules'>,
  scope: UserScope,
  fact: Pick<FactDraft, 'subject' | 'predicate' | 'validFrom'>,
  exclude: ReadonlySet<string> = new Set(),
): Promise<CandidateDraft[]> {
  const live = await deps.store.facts.findLive(scope, deps.rules.subjectKey(fact.subject), deps.rules.candidatePredicates(fact.predicate), fact.validFrom);
  return live.filter((f) => !exclude.has(f.id) && !neverValid(f)).map(toCandidate);
}

const toCandidateFact = (c: CandidateDraft): CandidateFact => ({
  ...c,
  validFrom: new Date(c.validFrom),
  invalidAt: c.invalidAt ? new Date(c.invalidAt) : null,
});

const toDraft = (d: ContradictionDecision): DecisionDraft => {
  if (d.kind === 'insert_closed') return { kind: 'insert_closed', closedAt: d.closedAt.toISOString() };
  if (d.kind === 'insert' && d.closedAt) return { kind: 'insert', invalidate: d.invalidate, closedAt: d.closedAt.toISOString(), ...(d.closedBy ? { closedBy: d.closedBy } : {}) };
  if (d.kind === 'insert') return { kind: 'insert', invalidate: d.invalidate };
  return d;
};

export async function decide(judge: ContradictionJudge, fact: FactDraft, seq: number, candidates: CandidateDraft[]): Promise<DecisionDraft> {
  if (candidates.length === 0 && !fact.negated && fact.tense !== 'past') return { kind: 'insert', invalidate: [] };
  const decision = await judge.decide(
    {
      subject: fact.subject,
      predicate: fact.predicate,
      object: fact.object,
      negated: fact.negated,
      validFrom: new Date(fact.validFrom),
      seq,
      tense: fact.tense,
      validTo: fact.validTo ? new Date(fact.validTo) : null,
      validFromStated: fact.validFromStated !== false,
      referenceTime: new Date(fact.referenceTime ?? fact.validFrom),
    },
    candidates.map(toCandidateFact),
  );
  return toDraft(decision);
}
