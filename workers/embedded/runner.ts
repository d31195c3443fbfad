import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import { recordStageTimings } from '../../core/metrics.js';
import { isStorageFull } from '../../core/outages.js';
import type { PipelineDeps } from '../../pipeline/write/stages.js';
import { jobIdOf, type JobRow, type SqliteJobs } from '../../storage/sqlite/jobs.js';
import type { SqliteStore } from '../../storage/sqlite/store.js';
import { inWriteTransaction, writeUrgently } from '../../storage/sqlite/write-lock.js';
import { WriterPriority } from '../../storage/sqlite/writer-priority.js';
import type { AcceptedWrites, MemoryVersions, WriteJob, WriteQueue } from '../../core/write-queue.js';
import { executeWrite, type PipelineResult } from './pipeline.js';
import { AcceptedInbox } from './accepted-inbox.js';
import { FinishedWrites } from './finished-writes.js';
import { ThreadTurns } from './turns.js';
import type { PipelineTask } from './pipeline-thread.js';
import { threadModule } from '../threads/thread-module.js';

export { runPipeline } from './pipeline.js';

export interface EmbeddedRunnerOptions {
  /** Worker threads running the stages; 0 runs them on this thread (tests that swap a stage use it). */
  threads: number;
  /** Passed to the threads, which build their own store connection and pipeline from it. */
  config?: Config;
  /** Writes in flight per thread (most of them wait for their turn in a user scope). */
  writesPerThread?: number;
  attempts: number;
  /** A claimed job whose runner vanished is retried after this long. */
  leaseMs?: number;
  backoffMs?: number;
}

/** How soon a write that met a full disk is tried again. */
const NO_SPACE_RETRY_MS = 1_000;

/** One pipeline thread per core: the API thread mostly waits on I/O, the stages are CPU work. */
export const defaultPipelineThreads = () => Math.max(1, availableParallelism());

/** A non-negative hash of a user scope: the writes of one scope share a lane. */
const scopeHash = (workspaceId: string, agentId: string | null, userId: string | null) => hashOf(JSON.stringify([workspaceId, agentId, userId]));

function hashOf(key: string): number {
  let hash = 0;
  for (let i = 0; i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return hash & 0x7fffffff;
}

/** Where a write's stages run: on this thread or in a pool of worker threads. */
interface PipelineExecutor {
  readonly lanes: number;
  run(lane: number, job: WriteJob, owner: string): Promise<PipelineResult>;
  close(): Promise<void>;
}

class InlineExecutor implements PipelineExecutor {
  readonly lanes = 1;
  constructor(
    private readonly deps: PipelineDeps,
    private readonly logger: Logger,
  ) {}

  run(_lane: number, job: WriteJob, owner: string) {
    return executeWrite(this.deps, job, owner, { logger: this.logger.child({ memoryId: job.memoryId }) });
  }

  async close() {}
}

/**
 * One single-thread pool per lane; the writes of a user scope always go to the same lane,
 * so the hand-off from one commit to the next write of the scope stays inside a thread.
 */
class ThreadPoolExecutor implements PipelineExecutor {
  private readonly pools: Piscina<PipelineTask, PipelineResult>[];

  constructor(
    readonly lanes: number,
    writesPerThread: number,
    config: Config,
    writerPriority: WriterPriority,
  ) {
    const { filename, execArgv } = threadModule(import.meta.url, 'pipeline-thread');
    this.pools = Array.from(
      { length: lanes },
      () =>
        new Piscina({
          filename,
          minThreads: 1,
          maxThreads: 1,
          concurrentTasksPerWorker: writesPerThread,
          idleTimeout: Number.POSITIVE_INFINITY,
          workerData: { config, writerPriority: writerPriority.buffer },
          execArgv,
        }),
    );
  }

  run(lane: number, job: WriteJob, owner: string) {
    return this.pools[lane].run({ job, owner });
  }

  async close() {
    await Promise.all(this.pools.map((pool) => pool.destroy()));
  }
}

/**
 * The embedded queue: durable job rows in the embedded database, claimed in arrival
 * order by this (API) thread and run in pipeline worker threads. A crash or restart
 * resumes every accepted, unfinished write.
 */
export class EmbeddedQueue implements WriteQueue {
  readonly kind = 'embedded' as const;
  private running = false;
  /** Writes in flight per lane. */
  private active: number[] = [];
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly owner = `runner-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly perLane: number;
  private readonly inFlight = new Set<Promise<void>>();
  private executor: PipelineExecutor | null = null;
  private readonly jobs: SqliteJobs;
  private readonly db: SqliteStore['db'];
  /** The runner's WriteOutcomes: finished writes are recorded in groups. */
  private readonly outcomes: FinishedWrites;
  private readonly turns: ThreadTurns;
  /** Writes acknowledged but not yet in their tables. */
  private readonly inbox: AcceptedInbox;
  /** Claims to give back that could not be, the disk being full: tried again on every turn of the loop. */
  private readonly unreturned = new Map<string, JobRow>();
  private diskFull = false;

  constructor(
    private readonly store: SqliteStore,
    private readonly deps: PipelineDeps,
    private readonly logger: Logger,
    private readonly options: EmbeddedRunnerOptions,
  ) {
    this.db = store.db;
    this.jobs = store.jobs;
    this.outcomes = new FinishedWrites(store, logger, () => this.wake?.());
    this.turns = new ThreadTurns(store);
    this.inbox = new AcceptedInbox(
      store,
      (jobs, memories) => {
        const scopes = new Map(memories.map((m) => [m.id, scopeHash(m.workspaceId, m.agentId, m.userId)]));
        this.insertJobs(jobs, (job) => scopes.get(job.memoryId) ?? this.storedScopeHash(job));
      },
      () => this.wake?.(),
      logger.child({ component: 'inbox' }),
    );
    this.leaseMs = options.leaseMs ?? 60_000;
    this.backoffMs = options.backoffMs ?? 200;
    this.perLane = options.writesPerThread ?? 8;
  }

  async enqueue(jobs: WriteJob[]): Promise<void> {
    if (jobs.length === 0) return;
    this.db.transaction(() => this.insertJobs(jobs, (job) => this.storedScopeHash(job))).immediate();
    this.wake?.();
  }

  /** One inbox row, expanded into the records and their job rows soon after (AcceptedInbox). */
  async accept(writes: AcceptedWrites): Promise<void> {
    await this.inbox.add(writes);
  }

  readable(): Promise<void> {
    return this.inbox.readable();
  }

  acknowledging(): () => void {
    return this.inbox.acknowledging();
  }

  private insertJobs(jobs: WriteJob[], scopeHashOf: (job: WriteJob) => number): void {
    const lanes = this.lanes();
    this.jobs.insert(
      jobs.map((job) => {
        const scopeHash = scopeHashOf(job);
        return { id: jobIdOf(job), payload: JSON.stringify(job), scopeHash, lane: scopeHash % lanes };
      }),
      Date.now(),
    );
  }

  async forgetMemories(workspaceId: string, memories: MemoryVersions[]): Promise<void> {
    this.jobs.forget(
      workspaceId,
      memories.flatMap(({ id, version }) => Array.from({ length: version }, (_, i) => jobIdOf({ memoryId: id, version: i + 1 }))),
    );
  }

  async startWorkers(): Promise<void> {
    if (this.running) return;
    // Jobs queued under another thread count move to their lane for this one.
    this.jobs.relane(this.lanes());
    this.active = Array.from({ length: this.lanes() }, () => 0);
    this.inbox.drainSoon();
    this.reconcile();
    this.running = true;
    this.loop = this.run();
  }

  /** Lanes: one per pipeline thread. */
  private lanes(): number {
    return Math.max(1, this.options.threads);
  }

  /** The scope hash of a job's stored memory. */
  private storedScopeHash(job: WriteJob): number {
    const row = this.jobs.memoryScope(job.workspaceId, job.memoryId);
    return row ? scopeHash(job.workspaceId, row.agent_id, row.user_id) : hashOf(job.memoryId);
  }

  /** A write accepted just before a crash may have no job row yet: give every such memory one. */
  private reconcile(): void {
    const orphans = this.jobs.orphans();
    if (orphans.length === 0) return;
    this.logger.warn({ count: orphans.length }, 're-enqueueing writes that had no job');
    void this.enqueue(orphans.map((o) => ({ workspaceId: o.workspace_id, memoryId: o.id, version: o.version })));
  }

  /** Pipeline threads start with the first write, not with the process: start-up stays short and idle servers stay small. */
  private executorFor(): PipelineExecutor {
    this.executor ??=
      this.options.threads > 0 && this.options.config
        ? this.startThreads(this.options.threads, this.options.config)
        : new InlineExecutor(this.deps, this.logger);
    return this.executor;
  }

  private startThreads(threads: number, config: Config): PipelineExecutor {
    // The pipeline threads checkpoint the write-ahead log from now on (pipeline-thread.ts). Left on,
    // this connection's commits would run checkpoints on the API thread: while readers keep the log
    // from being reset, every commit past the threshold tries again.
    this.db.pragma('wal_autocheckpoint = 0');
    // Requests wait on this thread's writes (acceptances, counters): the pipeline threads let them go first.
    const priority = new WriterPriority();
    writeUrgently(this.db, priority);
    return new ThreadPoolExecutor(threads, this.perLane, config, priority);
  }

  private claim(lane: number): (JobRow & { job: WriteJob }) | null {
    const now = Date.now();
    const row = this.jobs.claim(lane, now, now + this.leaseMs);
    return row ? { ...row, job: JSON.parse(row.payload) as WriteJob } : null;
  }

  /** Every lane's oldest ready jobs, up to its free slots, in one transaction. */
  private claimReady(): Promise<{ lane: number; row: JobRow & { job: WriteJob } }[]> {
    return inWriteTransaction(this.db, () => {
      const claimed = [];
      for (let lane = 0; lane < this.active.length; lane++) {
        for (let free = this.perLane - this.active[lane]; free > 0; free--) {
          const row = this.claim(lane);
          if (!row) break;
          claimed.push({ lane, row });
        }
      }
      return claimed;
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      for (const { lane, row } of await this.claimReadyUnlessDiskFull()) {
        this.active[lane]++;
        const task = this.process(lane, row).finally(() => {
          this.active[lane]--;
          this.inFlight.delete(task);
          this.wake?.();
        });
        this.inFlight.add(task);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          // After this turn of the event loop: the writes that end in it free their slots for one claim.
          setImmediate(resolve);
        };
      });
    }
  }

  /**
   * On a full disk nothing can be claimed (a claim is a write): the loop keeps turning, retrying the claims it
   * could not give back, until space returns.
   */
  private async claimReadyUnlessDiskFull(): Promise<{ lane: number; row: JobRow & { job: WriteJob } }[]> {
    try {
      for (const row of this.unreturned.values()) this.giveBack(row, 0);
      const claimed = await this.claimReady();
      // Claiming nothing writes nothing: only a claim proves that there is space again.
      if (claimed.length > 0) this.noteDiskFull(false);
      return claimed;
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      this.noteDiskFull(true);
      return [];
    }
  }

  private noteDiskFull(full: boolean): void {
    if (full === this.diskFull) return;
    this.diskFull = full;
    if (full) this.logger.error('the data volume is full: writes wait until space is freed');
    else this.logger.info('space on the data volume again: writes resume');
  }

  /** Not the write's failure (an earlier write of its scope is unfinished, or the disk is full): the attempt is given back. */
  private giveBack(row: JobRow, delayMs: number): void {
    try {
      this.jobs.giveBack(row.id, row.attempts, Date.now() + delayMs, Date.now());
      this.unreturned.delete(row.id);
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      this.noteDiskFull(true);
      this.unreturned.set(row.id, row);
    }
  }

  /** A full disk is not the write's failure: it is tried again, without spending an attempt, until there is space. */
  private waitForSpace(row: JobRow): void {
    this.noteDiskFull(true);
    this.giveBack(row, NO_SPACE_RETRY_MS);
  }

  private async process(lane: number, row: JobRow & { job: WriteJob }): Promise<void> {
    const { job } = row;
    try {
      const result = await this.executorFor().run(lane, job, `${this.owner}-${row.id}`);
      recordStageTimings(result.timings, result.kind === 'failed' ? result.stage : undefined);
      if (result.kind === 'failed') throw new Error(result.message);
      if (result.kind === 'wait') return this.giveBack(row, 10);
      if (result.kind === 'no-space') return this.waitForSpace(row);
      await this.outcomes.completed(job, result.output);
    } catch (error) {
      if (isStorageFull(error)) return this.waitForSpace(row);
      try {
        await this.recordFailure(row, error);
      } catch (recording) {
        if (!isStorageFull(recording)) throw recording;
        this.waitForSpace(row);
      }
    }
  }

  private async recordFailure(row: JobRow & { job: WriteJob }, error: unknown): Promise<void> {
    const { job } = row;
    if (row.attempts >= this.options.attempts) {
      this.jobs.fail(row.id, String(error), Date.now());
      await this.outcomes.failed(job, error);
      // Its scope is not known here: every waiting write looks again.
      this.turns.ended(undefined);
    } else {
      const delay = this.backoffMs * 2 ** (row.attempts - 1);
      this.logger.warn({ jobId: row.id, memoryId: job.memoryId, err: error, attempt: row.attempts, retryInMs: delay }, 'write stage failed; retrying');
      this.jobs.retry(row.id, Date.now() + delay, String(error), Date.now());
    }
  }

  async counts(): Promise<Record<string, number>> {
    return this.jobs.counts();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /** Stops claiming work, waits for jobs in flight, then stops the threads. */
  async close(): Promise<void> {
    await this.inbox.close();
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.outcomes.flush();
    await this.executor?.close();
  }
}
