import type { Logger } from '../../core/logger.js';
import { isStorageFull } from '../../core/outages.js';
import { writeSequence } from '../../core/commands/memories.js';
import type { AcceptedWrites, WriteJob } from '../../core/write-queue.js';
import type { SqliteStore } from '../../storage/sqlite/store.js';
import type { WriteRecords } from '../../storage/types.js';
import { inWriteTransaction } from '../../storage/sqlite/write-lock.js';

/** Memories one expansion step moves: a few milliseconds of the API thread, so requests get in between steps. */
const STEP_MEMORIES = 100;
/** How soon an expansion that failed (a full disk, the write lock held too long) is tried again. */
const RETRY_MS = 1_000;
/** Longest expansion waits for acknowledgements before taking a step anyway. */
const MAX_DEFER_MS = 50;
/**
 * How long after an acknowledgement expansion still waits for the next one: a client sending batches together over
 * one connection sends the next when the last is answered, a few milliseconds later.
 */
const ACKNOWLEDGEMENT_GAP_MS = 10;

/**
 * Acknowledged writes on their way into the embedded database's tables.
 *
 * A request's writes are acknowledged once they are one row of the inbox table: a 500-item batch costs one insert,
 * so batches arriving together do not wait for each other's thousands of rows (memories, history, jobs). (Writes
 * that fit in one step, arriving while the inbox is empty, skip it: they cost what a step costs.) Rows are
 * then expanded into those tables in arrival order, STEP_MEMORIES memories a step, each step one transaction, with
 * a turn of the event loop between steps; a crash resumes at the step it stopped before. Expansion also numbers the
 * writes (their write sequence) in the order they reached the inbox: two requests can take numbers in one order and
 * reach the inbox in the other, and a scope's writes must become visible, and run, in the order of their numbers.
 *
 * Until a row is expanded its writes cannot be read, so every request but an acknowledgement first waits for the
 * rows added before it (`readable`). While no request waits, steps also give way to acknowledgements in progress or
 * following each other closely (`acknowledging`, up to MAX_DEFER_MS at a time), so that batches sent together are
 * all acknowledged before the first is expanded.
 */
export class AcceptedInbox {
  /** Place of the newest row added (or found at start). */
  private newestAdded: number;
  /** Every row up to this place is expanded. */
  private expandedThrough: number;
  private draining: Promise<void> | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private failure: unknown = null;
  /** The row being expanded, parsed once for all its steps. */
  private current: { seq: number; writes: AcceptedWrites } | null = null;
  /** Requests waiting in `readable`. */
  private readsWaiting = 0;
  /** Wakes the requests waiting in `readable` after each step (or failure). */
  private progressed = new Set<() => void>();
  /** Requests acknowledging writes, from their first byte to their answer. */
  private acknowledgements = 0;
  private lastAcknowledgedAt = -Infinity;
  /** Ends the wait of a deferred expansion step. */
  private resume: (() => void) | null = null;

  constructor(
    private readonly store: SqliteStore,
    /** Inserts a step's job rows, in the step's transaction. */
    private readonly insertJobs: (jobs: WriteJob[], memories: WriteRecords['memories']) => void,
    /** Hears of each expanded step (the runner claims its jobs). */
    private readonly expanded: () => void,
    private readonly logger: Logger,
  ) {
    this.newestAdded = store.inbox.newest();
    const oldest = store.inbox.oldest();
    this.expandedThrough = oldest ? oldest.seq - 1 : this.newestAdded;
  }

  /**
   * Durable once it resolves. Writes of one step or fewer (a single write) go straight into their tables while the
   * inbox is empty, as one step would put them there; otherwise they are one inbox row, whatever their number.
   */
  async add(writes: AcceptedWrites): Promise<void> {
    const seq = await inWriteTransaction(this.store.db, () => {
      if (writes.memories.length <= STEP_MEMORIES && !this.store.inbox.oldest()) {
        this.storeStep(writes, 0, writes.memories.length);
        return null;
      }
      return this.store.inbox.add(JSON.stringify(writes));
    });
    if (seq === null) {
      this.expanded();
      return;
    }
    this.newestAdded = Math.max(this.newestAdded, seq);
    this.drainSoon();
  }

  /**
   * Stores memories `from` to `to` of `writes` (with the batch, when `from` is 0), their events and job rows, the
   * memories numbered in the workspace's write sequence from here on. In the caller's transaction.
   */
  private storeStep(writes: AcceptedWrites, from: number, to: number): void {
    const memories = writes.memories.slice(from, to);
    const ids = new Set(memories.map((m) => m.id));
    if (memories.length > 0) {
      const first = this.store.sequences.nextInTransaction(writeSequence(memories[0].workspaceId), memories.length);
      memories.forEach((m, i) => (m.seq = first + i));
    }
    const belongs = (record: { memoryId: string }) => ids.has(record.memoryId);
    this.store.insertWrites({ batch: from === 0 ? writes.batch : undefined, memories, events: writes.events.filter(belongs) });
    this.insertJobs(writes.jobs.filter(belongs), memories);
  }

  /** A request that acknowledges writes has started; the function returned ends it. */
  acknowledging(): () => void {
    this.acknowledgements++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.lastAcknowledgedAt = performance.now();
      if (--this.acknowledgements === 0) this.resume?.();
    };
  }

  /**
   * Resolves once every write acknowledged before the call is in its tables. On a full disk the writes stay
   * acknowledged but unreadable until space returns; reads go on meanwhile.
   */
  async readable(): Promise<void> {
    const target = this.newestAdded;
    if (this.expandedThrough >= target) return;
    this.readsWaiting++;
    try {
      while (this.expandedThrough < target && !this.closed) {
        if (this.failure !== null) {
          if (isStorageFull(this.failure)) return;
          throw this.failure;
        }
        this.resume?.();
        this.drainSoon();
        await new Promise<void>((resolve) => this.progressed.add(resolve));
      }
    } finally {
      this.readsWaiting--;
    }
  }

  /** Expands what is left (from a previous run, after a crash), between requests. */
  drainSoon(): void {
    if (this.closed || this.draining) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      // A row added while the last step was finishing found this drain still running.
      if (this.expandedThrough < this.newestAdded && this.retry === null) this.drainSoon();
    });
  }

  /** Stops expanding after the step in progress; what is left is expanded at the next start. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.resume?.();
    await this.draining;
    this.wakeReads();
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        await this.otherRequestsFirst();
        if (this.closed || !(await this.step())) break;
        this.failure = null;
        this.wakeReads();
      }
    } catch (error) {
      this.failure = error;
      this.logger.error({ err: error }, 'acknowledged writes could not be moved into the database; trying again');
      if (!this.closed) this.retry = setTimeout(() => this.drainSoon(), RETRY_MS).unref();
    }
    this.wakeReads();
  }

  private wakeReads(): void {
    const waiting = [...this.progressed];
    this.progressed.clear();
    for (const wake of waiting) wake();
  }

  /**
   * A turn of the event loop; then, unless a request waits for the expansion, as long as acknowledgements are in
   * progress or closely follow each other, up to MAX_DEFER_MS.
   */
  private async otherRequestsFirst(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    const deadline = performance.now() + MAX_DEFER_MS;
    for (;;) {
      if (this.readsWaiting > 0 || this.closed) return;
      const now = performance.now();
      const quietAt = this.acknowledgements > 0 ? Infinity : this.lastAcknowledgedAt + ACKNOWLEDGEMENT_GAP_MS;
      if (now >= quietAt || now >= deadline) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.resume?.(), Math.min(quietAt, deadline) - now);
        this.resume = () => {
          clearTimeout(timer);
          this.resume = null;
          resolve();
        };
      });
    }
  }

  /** Expands the next step of the oldest row, in one transaction; false when the inbox is empty. */
  private async step(): Promise<boolean> {
    const newest = this.newestAdded;
    // `through`: every row up to this place is expanded once the step commits (null: the step left its row unfinished).
    const step = await inWriteTransaction(this.store.db, (): { moved: boolean; through: number | null } => {
      const row = this.store.inbox.oldest();
      if (!row) return { moved: false, through: newest };
      const writes = this.current?.seq === row.seq ? this.current.writes : (JSON.parse(this.store.inbox.writes(row.seq)) as AcceptedWrites);
      this.current = { seq: row.seq, writes };
      const end = Math.min(row.expanded + STEP_MEMORIES, writes.memories.length);
      this.storeStep(writes, row.expanded, end);
      if (end < writes.memories.length) {
        this.store.inbox.advance(row.seq, end);
        return { moved: true, through: null };
      }
      this.store.inbox.remove(row.seq);
      this.current = null;
      return { moved: true, through: row.seq };
    }).catch((error) => {
      // The transaction rolled back: the parsed row may carry numbers that were not kept.
      this.current = null;
      throw error;
    });
    if (step.through !== null) this.expandedThrough = Math.max(this.expandedThrough, step.through);
    if (step.moved) this.expanded();
    return step.moved;
  }
}
