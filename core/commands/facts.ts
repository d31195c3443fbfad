import { ApiError, invalidRequest, notFound } from '../errors.js';
import { newId } from '../ids.js';
import { writeAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { FactRecord } from '../../storage/types.js';
import type { SubjectType, Tense } from '../../pipeline/types.js';
import { withScopeLock } from '../../pipeline/write/scope-order.js';
import { invalidateFacts, placeFact, type PlacementResult } from './fact-placement.js';
import { ensureAgent } from './agents.js';
import { writeAudit } from './audit.js';
import { nextWriteSeq } from './memories.js';

export interface FactInput {
  subject: string;
  predicate: string;
  object: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  valid_from?: string;
  subject_type: SubjectType;
  object_is_literal: boolean;
  confidence: number;
  tense: Tense;
}

export const factNotFound = () => notFound('Fact not found');

/** A fact the key can see (any state), or 404. */
export async function visibleFact(svc: Services, principal: Principal, id: string): Promise<FactRecord> {
  const fact = await svc.store.facts.get(principal.workspace.id, id);
  if (!fact || (principal.agentId !== null && fact.agentId !== principal.agentId)) throw factNotFound();
  return fact;
}

const placedFact = (r: PlacementResult): { fact: FactRecord; invalidated: string[] } => {
  if (r.kind === 'retracted') throw new Error('a direct fact write is never a retraction');
  return { fact: r.fact, invalidated: r.kind === 'inserted' ? r.invalidated : [] };
};

/** POST /v1/facts: a structured fact, skipping extraction but not the contradiction check. */
export async function writeFact(svc: Services, principal: Principal, input: FactInput) {
  const agentId = writeAgent(principal, input.agent_id);
  await ensureAgent(svc, principal, agentId);
  await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
  const { predicate, family } = svc.pipeline.rules.canonicalPredicate(input.predicate);
  const scope = { workspaceId: principal.workspace.id, agentId, userId: input.user_id ?? null };
  const seq = await nextWriteSeq(svc, scope.workspaceId);
  const at = new Date().toISOString();
  const factId = newId('fct');
  const result = await withScopeLock(svc.store, scope, factId, () =>
    placeFact(svc.pipeline, {
      memory: { ...scope, runId: input.run_id ?? null, id: null },
      factId,
      fact: {
        subject: input.subject,
        subjectType: input.subject_type,
        predicate,
        predicateRaw: input.predicate,
        family,
        object: input.object,
        objectIsLiteral: input.object_is_literal,
        negated: false,
        tense: input.tense,
        validFrom: input.valid_from ?? at,
        validFromStated: input.valid_from != null,
        validTo: null,
        confidence: input.confidence,
      },
      seq,
      sourceVersion: 0,
      token: `direct:${factId}`,
      at,
    }),
  );
  return placedFact(result);
}

/** POST /v1/facts/{id}/forget: idempotent. */
export async function forgetFact(svc: Services, principal: Principal, id: string, input: { at?: string }) {
  const fact = await visibleFact(svc, principal, id);
  if (fact.invalidAt !== null) {
    const auditId = fact.invalidatedBy?.startsWith('aud_')
      ? fact.invalidatedBy
      : await writeAudit(svc, principal, { action: 'fact.forget', result: 'already_forgotten', userId: fact.userId, targetId: id });
    return { id, status: 'already_forgotten' as const, invalid_at: fact.invalidAt, audit_id: auditId };
  }
  const at = input.at ?? new Date().toISOString();
  if (Date.parse(at) < Date.parse(fact.validFrom)) throw invalidRequest(`at: must not be before the fact's valid_from (${fact.validFrom})`);
  await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
  const auditId = newId('aud');
  const changed = await withScopeLock(svc.store, fact, `forget-${id}`, () => invalidateFacts(svc.store, fact.workspaceId, [id], at, auditId));
  if (changed === 0) return forgetFact(svc, principal, id, input); // lost a race with another invalidation
  await svc.store.audit.append({
    id: auditId,
    workspaceId: fact.workspaceId,
    ts: new Date().toISOString(),
    actor: principal.keyId,
    action: 'fact.forget',
    result: 'ok',
    userId: fact.userId,
    targetId: id,
    meta: { invalid_at: at },
  });
  return { id, status: 'forgotten' as const, invalid_at: at, audit_id: auditId };
}

/** PATCH /v1/facts/{id}: replaces a live fact with a corrected one. */
export async function correctFact(
  svc: Services,
  principal: Principal,
  id: string,
  input: { subject?: string; predicate?: string; object?: string },
) {
  const current = await visibleFact(svc, principal, id);
  if (current.invalidAt !== null) throw new ApiError(409, 'fact_not_current', 'This fact is already history; only live facts can be corrected');
  const rules = svc.pipeline.rules;
  const canonical = input.predicate !== undefined ? rules.canonicalPredicate(input.predicate) : { predicate: current.predicate, family: current.family };
  const subject = input.subject ?? current.subject;
  const object = input.object ?? current.object;
  const unchanged =
    rules.subjectKey(subject) === current.subjectKey &&
    canonical.predicate === current.predicate &&
    rules.normalizeObject(object) === current.objectKey;
  if (unchanged) return { fact: current, invalidated: [] as string[] };

  await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
  const seq = await nextWriteSeq(svc, current.workspaceId);
  const at = new Date().toISOString();
  const factId = newId('fct');
  return withScopeLock(svc.store, current, factId, async () => {
    const fresh = await svc.store.facts.get(current.workspaceId, id);
    if (!fresh || fresh.invalidAt !== null) throw new ApiError(409, 'fact_not_current', 'This fact is already history; only live facts can be corrected');
    await invalidateFacts(svc.store, current.workspaceId, [id], at, factId);
    const placed = placedFact(
      await placeFact(svc.pipeline, {
        memory: { workspaceId: current.workspaceId, agentId: current.agentId, userId: current.userId, runId: current.runId, id: current.sourceMemoryId },
        factId,
        fact: {
          subject,
          subjectType: current.subjectType,
          predicate: canonical.predicate,
          predicateRaw: input.predicate ?? current.predicateRaw,
          family: canonical.family,
          object,
          objectIsLiteral: current.objectIsLiteral,
          negated: false,
          tense: current.tense,
          validFrom: at,
          validTo: null,
          confidence: current.confidence,
        },
        seq,
        sourceVersion: current.sourceVersion,
        token: `correct:${factId}`,
        at,
      }),
    );
    const invalidated = [id, ...placed.invalidated.filter((x) => x !== id)];
    if (placed.fact.id === factId) await svc.store.facts.setInvalidated(current.workspaceId, factId, invalidated);
    return { fact: { ...placed.fact, invalidated }, invalidated };
  });
}
