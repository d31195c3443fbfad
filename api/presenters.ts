import type { AuditRecord, BatchRecord, FactRecord, HistoryEventRecord, MemoryRecord } from '../storage/types.js';

/** Fields every fact shape carries (spec plus the extras compat-notes lists). */
function factCore(f: FactRecord) {
  return {
    id: f.id,
    subject: f.subject,
    predicate: f.predicate,
    object: f.object,
    predicate_family: f.family,
    valid_from: f.validFrom,
    subject_type: f.subjectType,
    object_is_literal: f.objectIsLiteral,
    tense: f.tense,
    user_id: f.userId,
    agent_id: f.agentId,
    created_at: f.createdAt,
    observation_count: f.confirmations.length,
    last_confirmed_at: f.lastConfirmedAt,
    source_memory_ids: f.sourceMemoryIds,
  };
}

/** The shape add, update and memory reads return. */
export const presentWriteFact = (f: FactRecord, invalidated: string[] = f.invalidated) => ({ ...factCore(f), invalidated });

/** The shape the facts endpoints return (no `invalidated`). */
export const presentFact = (f: FactRecord) => ({
  ...factCore(f),
  predicate_raw: f.predicateRaw,
  confidence: f.confidence,
  invalid_at: f.invalidAt,
  invalidated_by: f.invalidatedBy,
  source_memory_id: f.sourceMemoryId,
});

export const presentMemory = (m: MemoryRecord, facts: FactRecord[]) => ({
  id: m.id,
  content: m.content,
  user_id: m.userId,
  agent_id: m.agentId,
  run_id: m.runId,
  metadata: m.metadata,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
  status: m.status,
  facts: facts.map((f) => presentWriteFact(f)),
});

export const presentHistoryEvent = (e: HistoryEventRecord) => ({
  event: e.event,
  at: e.at,
  ...(e.fact !== null ? { fact: e.fact } : {}),
  ...(e.factId !== null ? { fact_id: e.factId } : {}),
});

export const presentBatch = (b: BatchRecord) => ({
  id: b.id,
  status: b.status,
  received: b.received,
  imported: b.imported,
  failed: b.failed,
  errors: b.errors,
  created_at: b.createdAt,
  completed_at: b.completedAt,
});

export const presentAudit = (a: AuditRecord) => ({
  id: a.id,
  ts: a.ts,
  actor: a.actor,
  action: a.action,
  result: a.result,
  user_id: a.userId,
  target_id: a.targetId,
  meta: a.meta,
});
