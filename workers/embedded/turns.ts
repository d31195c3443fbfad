import { BroadcastChannel } from 'node:worker_threads';
import type { TakenTurn, TurnWait } from '../../pipeline/write/flow.js';
import { currentOf, isSkipped } from '../../pipeline/write/current.js';
import { EarlierWritePending, scopeLockKey, scopeOf, turnReached } from '../../pipeline/write/scope-order.js';
import type { WriteRef } from '../../pipeline/write/types.js';
import type { Store } from '../../storage/types.js';

/**
 * Commits finished in any thread of this process. A write waiting for an earlier one
 * in its user scope re-checks when one lands, instead of polling the store in a tight loop.
 */
const commits = new BroadcastChannel('engram:commits');
commits.unref();
/** Waiting writes by user scope; `*` wakes all of them. */
const waiters = new Map<string, Set<() => void>>();
const wake = (scope: string) => {
  const woken = scope === '*' ? [...waiters.values()].flatMap((s) => [...s]) : [...(waiters.get(scope) ?? [])];
  for (const w of woken) w();
};
commits.onmessage = (event) => wake(String((event as MessageEvent).data));

/** Tells every thread (this one included) that a write of `scope` ended, so the scope's waiting writes look again. */
function announceWriteEnded(scope = '*'): void {
  commits.postMessage(scope);
  wake(scope);
}

/** A write from another process (or a missed message) is noticed by this poll. */
const RECHECK_MS = 250;

function nextCommit(scope: string): Promise<void> {
  return new Promise((resolve) => {
    let set = waiters.get(scope);
    if (!set) waiters.set(scope, (set = new Set()));
    const done = () => {
      clearTimeout(timer);
      set.delete(done);
      if (set.size === 0 && waiters.get(scope) === set) waiters.delete(scope);
      resolve();
    };
    const timer = setTimeout(done, RECHECK_MS);
    set.add(done);
  });
}

/**
 * The embedded runner's wait for a write's turn (TurnWait): in the pipeline thread that runs the write, woken by
 * a message when a write of its scope ends in any thread of this process. After `maxWaitMs` it gives up with
 * EarlierWritePending so the runner can hand the slot to other work.
 */
export class ThreadTurns implements TurnWait {
  constructor(
    private readonly store: Store,
    private readonly maxWaitMs = 0,
  ) {}

  async take(ref: WriteRef): Promise<TakenTurn> {
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      const memory = await this.store.memories.get(ref.workspaceId, ref.memoryId);
      const scopeKey = memory ? scopeLockKey(scopeOf(memory)) : undefined;
      const turn = currentOf(memory, ref);
      if (isSkipped(turn) || (await turnReached(this.store, turn))) return { turn, scopeKey };
      if (Date.now() >= deadline) throw new EarlierWritePending(ref.memoryId);
      await nextCommit(scopeKey!);
    }
  }

  ended(scopeKey: string | undefined): void {
    announceWriteEnded(scopeKey);
  }
}
