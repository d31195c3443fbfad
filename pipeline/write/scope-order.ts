/**
 * Scope ordering: a user scope's writes commit in arrival order (a write waits for its turn), and one at a
 * time (the commit holds the scope's lease). Where each runner waits for the turn is in flow.ts.
 */
import type { MemoryRecord, Store, UserScope } from '../../storage/types.js';
import { isSkipped, loadCurrent } from './current.js';
import type { Skipped, WriteRef } from './types.js';

/**
 * A commit's user-scope lease. It is renewed while the commit runs, so it can
 * be short: a killed worker's lease frees the scope within this time.
 */
const SCOPE_LEASE_MS = 5_000;

export const scopeOf = (m: Pick<MemoryRecord, 'workspaceId' | 'agentId' | 'userId'>): UserScope => ({
  workspaceId: m.workspaceId,
  agentId: m.agentId,
  userId: m.userId,
});

export const scopeLockKey = (s: UserScope) => `scope:${s.workspaceId}:${JSON.stringify([s.agentId, s.userId])}`;

/** The user-scope lease stayed taken for the whole wait: the scope is busy, a retry later will get it. */
export class ScopeLockTimeoutError extends Error {
  override name = 'ScopeLockTimeoutError';
}

/** Runs `work` while holding the user-scope lease, so commits in one scope never interleave. */
export async function withScopeLock<T>(store: Store, scope: UserScope, owner: string, work: () => Promise<T>, waitMs = 20_000): Promise<T> {
  const key = scopeLockKey(scope);
  const deadline = Date.now() + waitMs;
  let delay = 2;
  while (!(await store.locks.tryAcquire(key, owner, SCOPE_LEASE_MS))) {
    if (Date.now() > deadline) throw new ScopeLockTimeoutError(`timed out waiting for the commit lock of ${key}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
  const renew = setInterval(() => void store.locks.tryAcquire(key, owner, SCOPE_LEASE_MS).catch(() => undefined), SCOPE_LEASE_MS / 3);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await store.locks.release(key, owner);
  }
}

/**
 * Thrown by the commit while an earlier write in the same user scope is still
 * processing. Runners re-queue the commit shortly, without counting an attempt,
 * so a scope commits in arrival order whatever the concurrency.
 */
export class EarlierWritePending extends Error {
  constructor(
    readonly memoryId: string,
    /** The user scope's lock key and the write's sequence, when known: a runner can wake the write when its turn comes. */
    readonly scope?: string,
    readonly seq?: number,
  ) {
    super(`an earlier write in the scope of ${memoryId} is still processing`);
  }
}

/** A write processing for longer than this no longer holds back later ones (it may be stuck). */
export const ARRIVAL_ORDER_WAIT_MS = 120_000;

/** Throws EarlierWritePending while a write that arrived earlier in the same user scope is unfinished. */
export async function awaitTurn(store: Store, memory: MemoryRecord): Promise<void> {
  if (!(await turnReached(store, memory))) throw new EarlierWritePending(memory.id, scopeLockKey(scopeOf(memory)), memory.seq);
}

/** True once no write that arrived earlier in the memory's user scope is unfinished. */
export async function turnReached(store: Store, memory: MemoryRecord): Promise<boolean> {
  const since = new Date(Date.now() - ARRIVAL_ORDER_WAIT_MS).toISOString();
  return !(await store.memories.pendingBefore(scopeOf(memory), memory.seq, since));
}

/**
 * The write, once it is its turn (EarlierWritePending before that), or Skipped for a write that
 * will skip. A runner may take the turn first and gather the commit's input only then.
 */
export async function takeTurn(store: Store, ref: WriteRef): Promise<MemoryRecord | Skipped> {
  const memory = await loadCurrent(store, ref);
  if (!isSkipped(memory)) await awaitTurn(store, memory);
  return memory;
}

/** The user scope's lock key of a write whose turn was taken (undefined for one that skips). */
export const turnScopeKey = (turn: MemoryRecord | Skipped): string | undefined => (isSkipped(turn) ? undefined : scopeLockKey(scopeOf(turn)));

/** Whether a write may run its contradiction and commit stages now (a write that will skip always may). */
export async function isTurn(store: Store, ref: WriteRef): Promise<boolean> {
  const memory = await loadCurrent(store, ref);
  return isSkipped(memory) || turnReached(store, memory);
}
