import { nextTimestamp } from '../clock.js';
import { notFound, queueUnavailable, staleWrite } from '../errors.js';
import { derivedId, newId } from '../ids.js';
import { writeAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { MemoryRecord } from '../../storage/types.js';
import type { AcceptedWrites } from '../write-queue.js';
import { scopeOf, withScopeLock } from '../../pipeline/write/scope-order.js';
import { invalidateFacts } from './fact-placement.js';
import { ensureAgent } from './agents.js';
import { writeAudit } from './audit.js';
import { scrubAfterErasure } from './erasure.js';

export interface MemoryInput {
  content: string;
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  metadata?: Record<string, unknown>;
  /** ISO string: the write's reference time (facts' valid_from). */
  timestamp?: string;
}

export const memoryNotFound = () => notFound('Memory not found');

/** The workspace's write sequence: orders a user scope's writes, and facts whose valid_from is equal. */
export const writeSequence = (workspaceId: string) => `writes:${workspaceId}`;
export const nextWriteSeq = (svc: Services, workspaceId: string, count = 1) => svc.store.sequences.next(writeSequence(workspaceId), count);

export function newMemoryRecord(principal: Principal, input: MemoryInput, agentId: string | null, seq: number): MemoryRecord {
  const now = new Date().toISOString();
  return {
    id: newId('mem'),
    workspaceId: principal.workspace.id,
    userId: input.user_id ?? null,
    agentId,
    runId: input.run_id ?? null,
    content: input.content,
    metadata: input.metadata ?? {},
    status: 'processing',
    error: null,
    version: 1,
    seq,
    referenceTime: input.timestamp ?? null,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}

/**
 * The `created` event's id is the memory's own time-sortable id under the event prefix: as
 * deterministic as a derived id, but a batch's 500 events go to the end of the history id index
 * instead of 500 random pages of it, so accepting them writes about a sixth of the pages.
 * (Derived ids are lowercase hex; ULIDs are uppercase, so the two never meet.)
 */
export const createdEvent = (m: MemoryRecord) => ({
  id: `evt_${m.id.slice(m.id.indexOf('_') + 1)}`,
  workspaceId: m.workspaceId,
  memoryId: m.id,
  event: 'created' as const,
  at: m.createdAt,
  factId: null,
  fact: null,
});

/** POST /v1/memories */
export async function addMemory(svc: Services, principal: Principal, input: MemoryInput): Promise<MemoryRecord> {
  const agentId = writeAgent(principal, input.agent_id);
  await ensureAgent(svc, principal, agentId);
  await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
  const memory = newMemoryRecord(principal, input, agentId, await nextWriteSeq(svc, principal.workspace.id));
  await acceptOrWithdraw(svc, principal, {
    memories: [memory],
    events: [createdEvent(memory)],
    jobs: [{ workspaceId: memory.workspaceId, memoryId: memory.id, version: memory.version }],
  });
  return memory;
}

/**
 * A write is accepted only once its job is queued. When the queue cannot take it
 * (Redis down), whatever was stored of the new write is withdrawn and the quota given
 * back, so the caller's retry neither duplicates nor loses anything.
 */
export async function acceptOrWithdraw(svc: Services, principal: Principal, writes: AcceptedWrites): Promise<void> {
  try {
    await svc.queue.accept(writes);
  } catch (error) {
    svc.logger.error({ err: error }, 'enqueue failed; withdrawing the write');
    const ids = writes.memories.map((m) => m.id);
    await svc.store.memories.purge({ workspaceId: principal.workspace.id, ids });
    await svc.store.history.purgeMemories(principal.workspace.id, ids);
    if (writes.batch) await svc.store.batches.remove(principal.workspace.id, writes.batch.id);
    await svc.limits.refund('write', principal.workspace.id, principal.workspace.plan, ids.length).catch(() => undefined);
    throw queueUnavailable();
  }
}

/** An active memory the key can see, or 404. */
export async function visibleMemory(svc: Services, principal: Principal, id: string): Promise<MemoryRecord> {
  const memory = await svc.store.memories.get(principal.workspace.id, id);
  if (!memory || memory.deletedAt) throw memoryNotFound();
  if (principal.agentId !== null && memory.agentId !== principal.agentId) throw memoryNotFound();
  return memory;
}

/** PATCH /v1/memories/{id} */
export async function updateMemory(
  svc: Services,
  principal: Principal,
  id: string,
  input: { content: string; expected_updated_at?: string },
): Promise<MemoryRecord> {
  for (let attempt = 0; ; attempt++) {
    const current = await visibleMemory(svc, principal, id);
    if (input.expected_updated_at !== undefined && Date.parse(input.expected_updated_at) !== Date.parse(current.updatedAt)) {
      throw staleWrite();
    }
    if (attempt === 0) await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
    const updated = await svc.store.memories.update(
      principal.workspace.id,
      id,
      {
        content: input.content,
        version: current.version + 1,
        seq: await nextWriteSeq(svc, principal.workspace.id),
        status: 'processing',
        error: null,
        updatedAt: nextTimestamp(current.updatedAt),
      },
      current.version,
    );
    if (!updated) continue; // a concurrent update or delete won the race: re-read and re-check
    const event = derivedId('evt', 'updated', id, updated.version);
    await svc.store.history.append([
      { id: event, workspaceId: updated.workspaceId, memoryId: id, event: 'updated', at: updated.updatedAt, factId: null, fact: null },
    ]);
    try {
      await svc.queue.enqueue([{ workspaceId: updated.workspaceId, memoryId: id, version: updated.version }]);
    } catch (error) {
      svc.logger.error({ err: error, memoryId: id }, 'enqueue failed after an update; withdrawing it');
      await withdrawUpdate(svc, principal, current, updated, event);
      throw queueUnavailable();
    }
    return updated;
  }
}

/**
 * An update is accepted only once its job is queued. When the queue cannot take it, the memory goes back to what
 * it was and the update's event is removed, so a 503 means nothing changed and the caller's retry is the one update.
 * Should that fail too (the database gone as well), the memory is left in `error` with the new content, and saying
 * so is the best left to do.
 */
async function withdrawUpdate(svc: Services, principal: Principal, before: MemoryRecord, updated: MemoryRecord, event: string): Promise<void> {
  const { workspaceId, id } = before;
  try {
    const restored = await svc.store.memories.update(
      workspaceId,
      id,
      { content: before.content, version: before.version, seq: before.seq, status: before.status, error: before.error, updatedAt: before.updatedAt },
      updated.version,
    );
    if (restored) await svc.store.history.remove(workspaceId, [event]);
    await svc.limits.refund('write', workspaceId, principal.workspace.plan).catch(() => undefined);
  } catch (error) {
    svc.logger.error({ err: error, memoryId: id }, 'withdrawing an update failed');
    const message = 'The write queue was unavailable; update the memory again to re-run extraction';
    await svc.store.memories.update(workspaceId, id, { status: 'error', error: message }, updated.version).catch(() => undefined);
  }
}

/** DELETE /v1/memories/{id}: the forgotten stub keeps id, scope and timestamps. */
export async function forgetMemory(
  svc: Services,
  principal: Principal,
  id: string,
): Promise<{ id: string; status: 'forgotten'; facts_invalidated: number; audit_id: string }> {
  const memory = await visibleMemory(svc, principal, id);
  await svc.limits.consume('write', principal.workspace.id, principal.workspace.plan);
  const ws = principal.workspace.id;
  const factsInvalidated = await withScopeLock(svc.store, scopeOf(memory), `forget-${id}`, async () => {
    const current = await svc.store.memories.get(ws, id);
    if (!current || current.deletedAt) throw memoryNotFound();
    // The vector first: with Elasticsearch down this fails before anything changed. What hangs off the memory goes
    // next and the memory itself last, so a request that fails part-way leaves it readable and the retry (which
    // must find it to be let in) finishes every step; each step is idempotent.
    await svc.vectors.remove(ws, [id]);
    const at = new Date().toISOString();
    const derived = await svc.store.facts.query({ workspaceId: ws, sourceMemoryId: id }, { limit: 100_000, offset: 0 });
    const count = await invalidateFacts(svc.store, ws, derived.items.map((f) => f.id), at, 'memory_deleted');
    await svc.store.entities.unlinkMemory(ws, id);
    await svc.store.history.append([
      { id: derivedId('evt', 'deleted', id), workspaceId: ws, memoryId: id, event: 'deleted', at, factId: null, fact: null },
    ]);
    if (!(await svc.store.memories.forget(ws, id, at))) throw memoryNotFound();
    // And again now that it reads as forgotten: an embed stage running beside this (it takes no scope lock) writes
    // its vector and only then re-reads the memory, so a vector written before this point goes now and one written
    // after it is removed by that stage. The memory is forgotten already, so a failure here is logged, not answered.
    await svc.vectors.remove(ws, [id]).catch((error) => svc.logger.warn({ err: error, memoryId: id }, 'vector of a forgotten memory not removed'));
    return count;
  });
  // Forgotten for every reader already, and its stage jobs skip it: leftover jobs (Redis down) are no reason to fail.
  await svc.queue.forgetMemories(ws, [{ id, version: memory.version }]).catch((error) => svc.logger.warn({ err: error, memoryId: id }, 'queued work of a forgotten memory not removed'));
  await scrubAfterErasure(svc);
  const auditId = await writeAudit(svc, principal, {
    action: 'memory.forget',
    userId: memory.userId,
    targetId: id,
    meta: { facts_invalidated: factsInvalidated, agent_id: memory.agentId },
  });
  return { id, status: 'forgotten', facts_invalidated: factsInvalidated, audit_id: auditId };
}
