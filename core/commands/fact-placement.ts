/**
 * Placing a fact among the facts of its user scope (insert, confirm, retract, supersede, reschedule) and ending
 * facts: used by the commit stage and by the commands that add, correct or forget facts. Runs under the scope lease.
 */
import { derivedId } from '../ids.js';
import type { FactRecord, HistoryEventRecord, MemoryRecord, Store } from '../../storage/types.js';
import { decide, findCandidates } from '../../pipeline/contradiction/candidates.js';
import { ownWeddingAsMarriage } from '../../pipeline/contradiction/own-wedding.js';
import { scopeOf } from '../../pipeline/write/scope-order.js';
import type { PipelineDeps } from '../../pipeline/write/stages.js';
import type { CandidateDraft, DecisionDraft, FactDraft } from '../../pipeline/write/types.js';

export const factText = (f: Pick<FactRecord, 'subject' | 'predicate' | 'object'>) => `${f.subject} ${f.predicate} ${f.object}`;

const sameIds = (a: CandidateDraft[], b: CandidateDraft[]) =>
  a.length === b.length && a.map((c) => c.id).sort().join() === b.map((c) => c.id).sort().join();

export interface FactPlacement {
  memory: Pick<MemoryRecord, 'workspaceId' | 'agentId' | 'userId' | 'runId'> & { id: string | null };
  factId: string;
  fact: FactDraft;
  seq: number;
  sourceVersion: number;
  /** Stage 2's view; reused when the live candidates have not changed since. */
  planned?: { candidates: CandidateDraft[]; decision: DecisionDraft };
  /** Confirmation token (idempotent across retries). */
  token: string;
  at: string;
}

export type PlacementResult =
  | { kind: 'inserted'; fact: FactRecord; invalidated: string[] }
  | { kind: 'confirmed'; fact: FactRecord }
  | { kind: 'retracted'; invalidated: string[] };

/**
 * Applies the contradiction decision for one fact. Must run under the scope lock.
 * Every write is idempotent (deterministic ids, conditional invalidation,
 * confirmation tokens), so a retried commit never duplicates anything.
 */
export async function placeFact(deps: Pick<PipelineDeps, 'store' | 'rules' | 'judge'>, p: FactPlacement): Promise<PlacementResult> {
  const { store } = deps;
  const ws = p.memory.workspaceId;
  p = { ...p, fact: withUnknownStart(p.fact) };
  // A superseded fact ends where the new one starts, or where a past statement says it ended.
  const endsAt = p.fact.validTo ?? p.fact.validFrom;
  const existing = await store.facts.get(ws, p.factId);
  if (existing) {
    // A retry after a crash between insert and invalidation: finish the invalidation (conditional, so idempotent).
    await invalidateFacts(store, ws, existing.invalidated, endsAt, p.factId);
    return { kind: 'inserted', fact: existing, invalidated: existing.invalidated };
  }

  const scope = scopeOf(p.memory);
  const resolved = await ownWeddingAsMarriage(deps, scope, p.fact);
  if (resolved !== p.fact) p = { ...p, fact: resolved, planned: undefined };
  let planned = p.planned;
  let decision: DecisionDraft;
  for (let round = 0; ; round++) {
    const candidates = await findCandidates(deps, scope, p.fact, new Set([p.factId]));
    decision = planned && sameIds(planned.candidates, candidates) ? planned.decision : await decide(deps.judge, p.fact, p.seq, candidates);
    if (decision.kind !== 'reschedule' || round >= 3) break;
    // Moved or replaced plans: cancel them (valid at no instant), restore what they would have ended, judge again.
    await cancelPlans(store, ws, decision.cancel, p.factId);
    planned = undefined;
  }

  if (decision.kind === 'confirm') {
    const source = p.memory.id ? { memoryId: p.memory.id, version: p.sourceVersion } : null;
    const confirmed = await store.facts.confirm(ws, decision.factId, p.token, source, p.at);
    if (confirmed) return { kind: 'confirmed', fact: confirmed };
  }
  if (decision.kind === 'retract' || decision.kind === 'reschedule') {
    const ids = decision.kind === 'retract' ? decision.invalidate : [];
    // A denied plan that has not started ("the trip is off") is cancelled; other denied facts end at endsAt.
    const reference = Date.parse(p.fact.referenceTime ?? p.fact.validFrom);
    const targets = (await store.facts.query({ workspaceId: ws, ids, includeInvalidated: true }, { limit: Math.max(1, ids.length), offset: 0 })).items;
    const plans = targets.filter((f) => Date.parse(f.validFrom) > reference).map((f) => f.id);
    await cancelPlans(store, ws, plans, p.factId);
    await invalidateFacts(store, ws, ids.filter((id) => !plans.includes(id)), endsAt, p.factId);
    return { kind: 'retracted', invalidated: ids };
  }

  const invalidate = decision.kind === 'insert' ? decision.invalidate : [];
  const decidedEnd = decision.kind === 'insert_closed' ? decision.closedAt : decision.kind === 'insert' ? (decision.closedAt ?? null) : null;
  // Never valid before it starts: an end before the start closes the fact at its start.
  const closedAt = decidedEnd !== null && Date.parse(decidedEnd) < Date.parse(p.fact.validFrom) ? p.fact.validFrom : decidedEnd;
  const closedBy = decision.kind === 'insert_closed' ? 'superseded_before_recorded' : decision.kind === 'insert' && closedAt ? (decision.closedBy ?? 'superseded_before_recorded') : null;
  const record: FactRecord = {
    id: p.factId,
    workspaceId: ws,
    userId: p.memory.userId,
    agentId: p.memory.agentId,
    runId: p.memory.runId,
    subject: p.fact.subject,
    subjectKey: deps.rules.subjectKey(p.fact.subject),
    subjectType: p.fact.subjectType,
    predicate: p.fact.predicate,
    predicateRaw: p.fact.predicateRaw,
    family: p.fact.family,
    object: p.fact.object,
    objectKey: deps.rules.normalizeObject(p.fact.object),
    objectIsLiteral: p.fact.objectIsLiteral,
    tense: p.fact.tense,
    confidence: p.fact.confidence,
    validFrom: p.fact.validFrom,
    validFromStated: p.fact.validFromStated !== false,
    invalidAt: closedAt,
    invalidatedBy: closedBy,
    invalidated: invalidate,
    confirmations: [p.token],
    lastConfirmedAt: p.at,
    sourceMemoryId: p.memory.id,
    sourceMemoryIds: p.memory.id ? [p.memory.id] : [],
    sourceVersion: p.sourceVersion,
    seq: p.seq,
    createdAt: p.at,
  };
  // Insert first, then invalidate: a crash in between leaves the old fact live, and the retry completes it.
  await store.facts.insert(record);
  await invalidateFacts(store, ws, invalidate, endsAt, p.factId);
  return { kind: 'inserted', fact: record, invalidated: invalidate };
}

/** The valid_from of a past fact whose start was never stated: before any date a text can name. */
export const UNKNOWN_START = '0001-01-01T00:00:00.000Z';

/**
 * "lived in Glasgow until 1985": only the end is known. The extractor dates such a fact at its end;
 * stored that way it would be valid at no instant, so it starts at UNKNOWN_START (not stated) instead.
 */
export function withUnknownStart(fact: FactDraft): FactDraft {
  if (fact.tense !== 'past' || !fact.validTo || Date.parse(fact.validFrom) < Date.parse(fact.validTo)) return fact;
  return { ...fact, validFrom: UNKNOWN_START, validFromStated: false };
}

/** Cancels plans that have not started: each is closed at its own start and what it would have ended is reopened. */
async function cancelPlans(store: Store, workspaceId: string, ids: string[], by: string): Promise<void> {
  if (ids.length === 0) return;
  await invalidateFacts(store, workspaceId, ids, new Date(0).toISOString(), by);
  for (const id of ids) await store.facts.reopen(workspaceId, id);
}

/**
 * Ends facts at `at` (never before a fact's own valid_from, so no fact is valid before it starts) and
 * records `fact_invalidated` on each one's source memory. A fact set to end later is ended earlier.
 */
export async function invalidateFacts(store: Store, workspaceId: string, ids: string[], at: string, by: string): Promise<number> {
  if (ids.length === 0) return 0;
  const before = (await store.facts.query({ workspaceId, ids, includeInvalidated: true }, { limit: ids.length, offset: 0 })).items;
  const endOf = (f: FactRecord) => (Date.parse(f.validFrom) > Date.parse(at) ? f.validFrom : at);
  const groups = new Map<string, string[]>();
  for (const f of before) groups.set(endOf(f), [...(groups.get(endOf(f)) ?? []), f.id]);
  let changed = 0;
  for (const [end, group] of groups) changed += await store.facts.invalidate(workspaceId, group, end, by);
  const events: HistoryEventRecord[] = before
    .filter((f) => f.sourceMemoryId && (f.invalidAt === null || Date.parse(f.invalidAt) > Date.parse(endOf(f))))
    .map((f) => ({
      id: derivedId('evt', 'invalidated', f.id),
      workspaceId,
      memoryId: f.sourceMemoryId!,
      event: 'fact_invalidated',
      at: endOf(f),
      factId: f.id,
      fact: factText(f),
    }));
  await store.history.append(events);
  return changed;
}
