import { notFound } from '../errors.js';
import { requireScope, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import { withScopeLock } from '../../pipeline/write/scope-order.js';
import { writeAudit } from './audit.js';

/**
 * After erasure, scrub: runs once the records of an erasure are deleted, so the removed
 * content is gone from the backend's files too (write-ahead log, full-text segments).
 * The erasure already happened for every reader; a scrub that cannot finish now is
 * logged and completed by the next one, so it never fails the request.
 */
export async function scrubAfterErasure(svc: Services): Promise<void> {
  try {
    await svc.store.scrubErased();
  } catch (error) {
    svc.logger.warn({ err: error }, 'scrub after erasure did not finish');
  }
}

interface PurgeCounts {
  memoriesActive: number;
  memoriesTotal: number;
  factsLive: number;
  factsTotal: number;
}

/**
 * Physically removes everything in a scope: memories, facts, entities,
 * vectors, history and queued work. Each step is idempotent, so a crash
 * part-way is finished by calling again.
 */
async function purgeScope(svc: Services, workspaceId: string, scope: { agentId: string | null; userId?: string }): Promise<PurgeCounts> {
  const filter = { workspaceId, agentId: scope.agentId, ...(scope.userId !== undefined ? { userId: scope.userId } : {}) };
  // The vectors first: with Elasticsearch down this fails before anything changed, and the retry does it all
  // (the steps after the memories' purge find their records by the purged memories' ids).
  await svc.vectors.purge(filter);
  const memories = await svc.store.memories.purge({ ...filter, includeForgotten: true });
  const memoryIds = memories.map((m) => m.id);
  await svc.queue.forgetMemories(workspaceId, memories);
  const facts = await svc.store.facts.purge({ ...filter, includeInvalidated: true });
  await svc.store.entities.purge(filter);
  await svc.store.history.purgeMemories(workspaceId, memoryIds);
  await closeErasedBatchItems(svc, workspaceId, memoryIds);
  await svc.store.batches.forgetMemories(workspaceId, memoryIds);
  // The vectors again, now that the memories are gone (last, so that a failure here leaves only this for the retry):
  // an embed stage running beside the erasure (it takes no scope lock) writes its vector and only then re-reads the
  // memory, so a vector written before this point goes now and one written after it is removed by that stage.
  await svc.vectors.purge(filter);
  return {
    memoriesActive: memories.filter((m) => m.active).length,
    memoriesTotal: memories.length,
    factsLive: facts.filter((f) => f.live).length,
    factsTotal: facts.length,
  };
}

/**
 * The erasure removed the queued work of batch items that had not run yet: nothing would ever record their
 * outcome, and their batches would stay `processing` for good. They count as failed (an item that did run keeps
 * its outcome: recording is once per item).
 */
async function closeErasedBatchItems(svc: Services, workspaceId: string, memoryIds: string[]): Promise<void> {
  const erased = new Set(memoryIds);
  const at = new Date().toISOString();
  for (const batch of await svc.store.batches.listOpenWith(workspaceId, memoryIds)) {
    for (const [index, id] of batch.memoryIds.entries()) {
      if (!erased.has(id)) continue;
      await svc.store.batches.recordItem(workspaceId, batch.id, index, { ok: false, error: { index, memory_id: null, message: 'erased before it was imported' } }, at);
    }
  }
}

/** DELETE /v1/users/{end_user}/memories: erases one end user within the key's workspace and agent namespace. */
export async function eraseUser(svc: Services, principal: Principal, userId: string) {
  requireScope(principal, 'memories:write');
  await svc.limits.consume('query', principal.workspace.id, principal.workspace.plan);
  const scope = { workspaceId: principal.workspace.id, agentId: principal.agentId, userId };
  const counts = await withScopeLock(svc.store, scope, `erase-${userId}`, () => purgeScope(svc, principal.workspace.id, scope));
  await scrubAfterErasure(svc);
  const auditId = await writeAudit(svc, principal, {
    action: 'user.erase',
    userId,
    meta: { memories_forgotten: counts.memoriesActive, facts_invalidated: counts.factsLive, agent_id: principal.agentId },
  });
  return {
    user_id: userId,
    memories_forgotten: counts.memoriesActive,
    facts_invalidated: counts.factsLive,
    audit_id: auditId,
    memories_deleted: counts.memoriesActive,
    facts_deleted: counts.factsLive,
    erasure: 'permanent' as const,
  };
}

/** DELETE /v1/agents/{id}: hard purge of one agent namespace; frees its place under the cap. */
export async function purgeAgent(svc: Services, principal: Principal, agentId: string) {
  requireScope(principal, 'memories:write');
  const ws = principal.workspace.id;
  const visible = principal.agentId === null || principal.agentId === agentId;
  if (!visible || !(await svc.store.agents.exists(ws, agentId))) throw notFound('Agent not found');
  const counts = await purgeScope(svc, ws, { agentId });
  await svc.store.agents.remove(ws, agentId);
  await scrubAfterErasure(svc);
  const auditId = await writeAudit(svc, principal, {
    action: 'agent.purge',
    targetId: agentId,
    meta: { memories_deleted: counts.memoriesTotal, facts_deleted: counts.factsTotal },
  });
  return { agent_id: agentId, memories_deleted: counts.memoriesTotal, facts_deleted: counts.factsTotal, audit_id: auditId };
}
