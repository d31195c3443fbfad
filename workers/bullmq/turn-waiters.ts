import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';

/** A user scope as it may travel through Redis: hashed, so no user id lands in a queue's event stream. */
export const scopeToken = (scopeKey: string) => createHash('sha256').update(scopeKey).digest('base64url').slice(0, 22);

/** Delay of a commit that must wait for an earlier write: doubles per wait, so a missed wake-up costs little. */
export const turnRetryDelayMs = (waits: number) => Math.min(25 * 2 ** waits, 1_000);

interface Waiter {
  job: Job;
  seq: number;
}

/**
 * Commit jobs this process moved to delayed because an earlier write of their user scope
 * was unfinished. When a commit of the scope lands (in this process, or in another one as
 * the commit queue's events tell), the scope's earliest waiting write is promoted at once:
 * commits run in arrival order, so it is the only one that can proceed. The others keep
 * their delay, so a scope with many writes in flight is not polled by all of them.
 */
export class TurnWaiters {
  private readonly byScope = new Map<string, Map<string, Waiter>>();
  private readonly waits = new Map<string, number>();

  /** Records a wait; returns how many times this job has waited so far. */
  add(token: string, seq: number, job: Job): number {
    if (this.waits.size > 10_000) this.waits.clear();
    const waits = this.waits.get(job.id!) ?? 0;
    this.waits.set(job.id!, waits + 1);
    let scope = this.byScope.get(token);
    if (!scope) this.byScope.set(token, (scope = new Map()));
    scope.set(job.id!, { job, seq });
    return waits;
  }

  /** The job ran (committed, skipped or failed): it waits no more. */
  done(token: string | undefined, jobId: string): void {
    this.waits.delete(jobId);
    if (token === undefined) return;
    const scope = this.byScope.get(token);
    scope?.delete(jobId);
    if (scope?.size === 0) this.byScope.delete(token);
  }

  /** A commit of the scope landed: promote its earliest waiting write. */
  wakeNext(token: string): void {
    const scope = this.byScope.get(token);
    if (!scope) return;
    let next: Waiter | undefined;
    for (const waiter of scope.values()) if (!next || waiter.seq < next.seq) next = waiter;
    if (!next) return;
    scope.delete(next.job.id!);
    if (scope.size === 0) this.byScope.delete(token);
    // Not delayed any more (already promoted, or being retried elsewhere): nothing to do.
    void next.job.promote().catch(() => undefined);
  }
}
