import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { TakenTurn, TurnWait } from '../../pipeline/write/flow.js';
import { EarlierWritePending, isTurn, takeTurn, turnScopeKey } from '../../pipeline/write/scope-order.js';
import type { WriteRef } from '../../pipeline/write/types.js';
import type { Store } from '../../storage/types.js';

/** A user scope as it may travel through Redis: hashed, so no user id lands in a queue's event stream. */
export const scopeToken = (scopeKey: string) => createHash('sha256').update(scopeKey).digest('base64url').slice(0, 22);

/** Longest a commit waits in its worker slot for an earlier write of its scope before moving to delayed. */
export const PARK_MS = 1_000;

/**
 * Delay of a commit that moved to delayed to wait for an earlier write. The scope's next landed commit
 * wakes the earliest waiter (TurnWaiters), so this only covers a wake-up that never comes (an earlier
 * write that failed for good or is stuck): a short delay would re-run every waiting commit of a backlog
 * several times before its turn, each run a fetch, a store check and a move back to delayed.
 */
export const turnRetryDelayMs = (waits: number) => Math.min(500 * 2 ** waits, 4_000);

interface Waiter {
  job: Job;
  seq: number;
  /** The write the job waits with (a chunk's job waits with the first of its writes whose turn has not come). */
  ref: WriteRef;
}

/**
 * Commit jobs of this process that wait for an earlier write of their user scope.
 *
 * A waiting commit first parks here, in its worker slot, for at most PARK_MS: when a commit of
 * its scope lands it asks for its turn again, with no Redis round trip and keeping its place.
 * At most `maxParked` park at once (one less than the commit concurrency), so a slot stays free
 * for the earlier write itself; a commit finding no room, or parked for too long, moves to delayed.
 *
 * When a commit of the scope lands (in this process, or in another one as the commit queue's
 * events tell), the scope's earliest delayed write is promoted at once if it is now its turn:
 * commits run in arrival order, so it is the only one that can proceed, and asking the store
 * first is cheaper than a promotion that would only wait again. The others keep their delay,
 * so a scope with many writes in flight is not polled by all of them.
 *
 * This is the BullMQ runner's TurnWait (pipeline/write/flow.ts): `take` parks, `ended` is `landed`.
 */
export class TurnWaiters implements TurnWait {
  private readonly byScope = new Map<string, Map<string, Waiter>>();
  private readonly waits = new Map<string, number>();
  private readonly parked = new Map<string, Set<() => void>>();
  private parkedCount = 0;
  /** Commits landed so far: a commit that saw none land since it asked for its turn may park. */
  landings = 0;

  /** `store` tells whether a waiting job's earlier writes have all finished; `maxParked` is how many commits may park at once. */
  constructor(
    private readonly store: Store,
    private readonly maxParked: number,
  ) {}

  /** The write's turn; EarlierWritePending once it has waited in its slot as long as it may (park). */
  async take(ref: WriteRef): Promise<TakenTurn> {
    const parkedSince = Date.now();
    for (;;) {
      const landingsSeen = this.landings;
      try {
        const turn = await takeTurn(this.store, ref);
        return { turn, scopeKey: turnScopeKey(turn) };
      } catch (error) {
        if (!(error instanceof EarlierWritePending) || error.scope === undefined) throw error;
        if (!(await this.park(scopeToken(error.scope), landingsSeen, parkedSince))) throw error;
      }
    }
  }

  /** A write of the scope ended in this process: as `landed`, which the commit queue's events call for the others. */
  ended(scopeKey: string | undefined): void {
    if (scopeKey !== undefined) this.landed(scopeToken(scopeKey));
  }

  /** A commit of the scope landed (here or in another process): parked commits ask again, the earliest delayed one is woken. */
  landed(token: string): void {
    this.landings++;
    for (const wake of this.parked.get(token) ?? []) wake();
    void this.wakeNext(token);
  }

  /**
   * Waits until a commit of the scope lands or PARK_MS pass. True when the caller should ask for
   * its turn again; false when there is no room or it waited long enough (it then moves to delayed).
   */
  async park(token: string, landingsSeen: number, parkedSince: number): Promise<boolean> {
    if (this.landings !== landingsSeen) return true; // something landed while it asked
    const left = parkedSince + PARK_MS - Date.now();
    if (left <= 0 || this.parkedCount >= this.maxParked) return false;
    let wakers = this.parked.get(token);
    if (!wakers) this.parked.set(token, (wakers = new Set()));
    this.parkedCount++;
    let wake!: () => void;
    const woken = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), left);
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
      wakers.add(wake);
    });
    this.parkedCount--;
    wakers.delete(wake);
    if (wakers.size === 0 && this.parked.get(token) === wakers) this.parked.delete(token);
    return woken;
  }

  /** Records a wait; returns how many times this job has waited so far. */
  add(token: string, seq: number, job: Job, ref: WriteRef): number {
    if (this.waits.size > 10_000) this.waits.clear();
    const waits = this.waits.get(job.id!) ?? 0;
    this.waits.set(job.id!, waits + 1);
    let scope = this.byScope.get(token);
    if (!scope) this.byScope.set(token, (scope = new Map()));
    scope.set(job.id!, { job, seq, ref });
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

  /** A commit of the scope landed (or may have): promote its earliest waiting write once it is its turn. */
  async wakeNext(token: string): Promise<void> {
    for (;;) {
      const next = this.earliest(token);
      // Not its turn yet: the earlier write's own commit will wake it (or its delay runs out).
      if (!next || !(await isTurn(this.store, next.ref).catch(() => false))) return;
      if (!this.remove(token, next)) continue; // woken meanwhile
      // A job that is not delayed any more (promoted elsewhere, or its delay ran out and it ran
      // in another process) leaves a stale entry: drop it and look at the next waiter.
      if (await next.job.promote().then(() => true, () => false)) return;
    }
  }

  private earliest(token: string): Waiter | undefined {
    let next: Waiter | undefined;
    for (const waiter of this.byScope.get(token)?.values() ?? []) if (!next || waiter.seq < next.seq) next = waiter;
    return next;
  }

  private remove(token: string, waiter: Waiter): boolean {
    const scope = this.byScope.get(token);
    if (scope?.get(waiter.job.id!) !== waiter) return false;
    scope.delete(waiter.job.id!);
    if (scope.size === 0) this.byScope.delete(token);
    return true;
  }
}
