import { notFound } from '../errors.js';
import { requireScope, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { MemoryVersionSummary } from '../../storage/types.js';
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

/** Memories purged per call: a bounded id list for each store round trip. */
const PURGE_CHUNK = 500;

/**
 * Physically removes everything in a scope: memories, facts, entities, vectors, history and queued work. A step
 * that fails (a backend down) fails the request and calling again finishes the job: the memory rows go last, so a
 * retry still finds every record the earlier attempt did not reach by the ids of the memories it lists again.
 * A write accepted into the scope while this runs is not listed and stays, as if it had come just after.
 */
async function purgeScope(svc: Services, workspaceId: string, scope: { agentId: string | null; userId?: string }): Promise<PurgeCounts> {
  const filter = { workspaceId, agentId: scope.agentId, ...(scope.userId !== undefined ? { userId: scope.userId } : {}) };
  // The vectors first: with Elasticsearch down this fails before anything else changed.
  await svc.vectors.purge(filter);
  const memories = await svc.store.memories.versions({ ...filter, includeForgotten: true });
  const memoryIds = memories.map((m) => m.id);
  await svc.queue.forgetMemories(workspaceId, memories);
  await svc.store.history.purgeMemories(workspaceId, memoryIds);
  await closeErasedBatchItems(svc, workspaceId, memoryIds);
  await svc.store.batches.forgetMemories(workspaceId, memoryIds);
  const facts = await svc.store.facts.purge({ ...filter, includeInvalidated: true });
  await svc.store.entities.purge(filter);
  const purged: MemoryVersionSummary[] = [];
  for (let i = 0; i < memoryIds.length; i += PURGE_CHUNK) {
    purged.push(...(await svc.store.memories.purge({ ...filter, ids: memoryIds.slice(i, i + PURGE_CHUNK), includeForgotten: true })));
  }
  // An update that landed after the listing queued a newer version and wrote its `updated` event.
  const listedVersion = new Map(memories.map((m) => [m.id, m.version]));
  const updatedMeanwhile = purged.filter((m) => m.version !== listedVersion.get(m.id));
  if (updatedMeanwhile.length) {
    await svc.queue.forgetMemories(workspaceId, updatedMeanwhile);
    await svc.store.history.purgeMemories(workspaceId, updatedMeanwhile.map((m) => m.id));
  }
  // The vectors again, by id now that the memories are gone: an embed stage running beside the erasure (it takes
  // no scope lock) writes its vector and only then re-reads the memory, so a vector written before this point goes
  // now and one written after it is removed by that stage.
  await svc.vectors.remove(workspaceId, memoryIds);
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
