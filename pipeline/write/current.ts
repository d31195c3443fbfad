import type { MemoryRecord, Store } from '../../storage/types.js';
import type { Skipped, WriteRef } from './types.js';

/** The memory at exactly this version, or why the stage should skip. */
export async function loadCurrent(store: Store, ref: WriteRef): Promise<MemoryRecord | Skipped> {
  return currentOf(await store.memories.get(ref.workspaceId, ref.memoryId), ref);
}

/** `memory` (as read) if it is at exactly the version of `ref`, or why the write skips. */
export function currentOf(memory: MemoryRecord | null, ref: WriteRef): MemoryRecord | Skipped {
  if (!memory) return { skipped: true, reason: 'missing' };
  if (memory.deletedAt) return { skipped: true, reason: 'forgotten' };
  if (memory.version !== ref.version) return { skipped: true, reason: 'superseded' };
  return memory;
}

export const isSkipped = (value: unknown): value is Skipped => (value as Skipped)?.skipped === true;
