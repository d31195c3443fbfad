import { newId } from '../ids.js';
import { writeAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { BatchRecord } from '../../storage/types.js';
import { ensureAgent } from './agents.js';
import { acceptOrWithdraw, createdEvent, nextWriteSeq, newMemoryRecord, type MemoryInput } from './memories.js';

/** POST /v1/batch: the whole request is already validated; items are queued in arrival order. */
export async function submitBatch(svc: Services, principal: Principal, items: MemoryInput[]): Promise<BatchRecord> {
  const ws = principal.workspace.id;
  const agents = items.map((item) => writeAgent(principal, item.agent_id));
  for (const agentId of new Set(agents)) await ensureAgent(svc, principal, agentId);
  await svc.limits.consume('write', ws, principal.workspace.plan, items.length);

  const firstSeq = await nextWriteSeq(svc, ws, items.length);
  const memories = items.map((item, i) => newMemoryRecord(principal, item, agents[i], firstSeq + i));
  const batch: BatchRecord = {
    id: newId('bat'),
    workspaceId: ws,
    status: items.length === 0 ? 'completed' : 'processing',
    received: items.length,
    imported: 0,
    failed: 0,
    errors: [],
    memoryIds: memories.map((m) => m.id),
    createdAt: new Date().toISOString(),
    completedAt: null,
  };
  const jobs = memories.map((m, index) => ({ workspaceId: ws, memoryId: m.id, version: 1, batchId: batch.id, itemIndex: index }));
  await acceptOrWithdraw(svc, principal, { memories, events: memories.map(createdEvent), batch, jobs });
  return batch;
}
