import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Config } from '../../core/config.js';
import type { Logger } from '../../core/logger.js';
import type { PipelineDeps } from '../../pipeline/write/stages.js';
import type { WriteOutcomes } from '../outcomes.js';
import type { MemoryVersions, WriteJob, WriteQueue } from '../queue.js';
import { announceWriteEnded, executeWrite, type PipelineResult } from './pipeline.js';
import type { PipelineTask } from './pipeline-thread.js';

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

/** One pipeline thread per core: the API thread mostly waits on I/O, the stages are CPU work. */
export const defaultPipelineThreads = () => Math.max(1, availableParallelism());

interface JobRow {
  id: string;
  payload: string;
  attempts: number;
}

/** Where a write's stages run: on this thread or in a pool of worker threads. */
interface PipelineExecutor {
  run(job: WriteJob, owner: string): Promise<PipelineResult>;
  close(): Promise<void>;
}

class InlineExecutor implements PipelineExecutor {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly logger: Logger,
  ) {}

  run(job: WriteJob, owner: string) {
    return executeWrite(this.deps, job, owner, { logger: this.logger.child({ memoryId: job.memoryId }) });
  }

  async close() {}
}

class ThreadPoolExecutor implements PipelineExecutor {
  private readonly pool: Piscina<PipelineTask, PipelineResult>;

  constructor(threads: number, writesPerThread: number, config: Config) {
    // Compiled (dist/) or source (tsx): the thread module sits next to this one either way.
    const source = import.meta.url.endsWith('.ts');
    const filename = new URL(`./pipeline-thread.${source ? 'ts' : 'js'}`, import.meta.url).href;
    const execArgv = source && !process.execArgv.some((a) => a.includes('tsx')) ? [...process.execArgv, '--import', 'tsx'] : process.execArgv;
    this.pool = new Piscina({
      filename,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: writesPerThread,
      idleTimeout: Number.POSITIVE_INFINITY,
      workerData: { config },
      execArgv,
    });
  }

  run(job: WriteJob, owner: string) {
    return this.pool.run({ job, owner });
  }

  async close() {
    await this.pool.destroy();
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
  private active = 0;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private readonly owner = `runner-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly leaseMs: number;
  private readonly backoffMs: number;
  private readonly concurrency: number;
  private readonly inFlight = new Set<Promise<void>>();
  private executor: PipelineExecutor | null = null;
  private readonly statements;

  constructor(
    private readonly db: Database.Database,
    private readonly deps: PipelineDeps,
    private readonly outcomes: WriteOutcomes,
    private readonly logger: Logger,
    private readonly options: EmbeddedRunnerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.backoffMs = options.backoffMs ?? 200;
    const perThread = options.writesPerThread ?? 8;
    this.concurrency = options.threads > 0 ? options.threads * perThread : perThread;
    this.statements = {
      insert: db.prepare(
        `INSERT OR IGNORE INTO jobs (id, queue, payload, state, attempts, run_after, created_at, updated_at, order_key)
         VALUES (?, 'write', ?, 'pending', 0, ?, ?, ?, (SELECT COALESCE(MAX(order_key), 0) + 1 FROM jobs))`,
      ),
      // Oldest first by arrival; the order_key index makes this a short index walk, whatever the backlog.
      claim: db.prepare(
        `UPDATE jobs SET state = 'running', run_after = ?, updated_at = ?, attempts = attempts + 1
         WHERE id = (SELECT id FROM jobs INDEXED BY jobs_order WHERE state IN ('pending', 'running') AND run_after <= ? ORDER BY order_key LIMIT 1)
         RETURNING id, payload, attempts`,
      ),
      done: db.prepare('DELETE FROM jobs WHERE id = ?'),
      later: db.prepare(`UPDATE jobs SET state = 'pending', run_after = ?, attempts = attempts - 1, updated_at = ? WHERE id = ?`),
      failed: db.prepare(`UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ?`),
      retry: db.prepare(`UPDATE jobs SET state = 'pending', run_after = ?, last_error = ?, updated_at = ? WHERE id = ?`),
    };
  }

  async enqueue(jobs: WriteJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = Date.now();
    this.db.transaction(() => {
      for (const job of jobs) this.statements.insert.run(`${job.memoryId}:v${job.version}`, JSON.stringify(job), now, now, now);
    }).immediate();
    this.wake?.();
  }

  async forgetMemories(workspaceId: string, memories: MemoryVersions[]): Promise<void> {
    const del = this.db.prepare(`DELETE FROM jobs WHERE id = ? AND json_extract(payload, '$.workspaceId') = ?`);
    this.db.transaction(() => {
      for (const { id, version } of memories) for (let v = 1; v <= version; v++) del.run(`${id}:v${v}`, workspaceId);
    }).immediate();
  }

  async startWorkers(): Promise<void> {
    if (this.running) return;
    this.executor =
      this.options.threads > 0 && this.options.config
        ? new ThreadPoolExecutor(this.options.threads, this.options.writesPerThread ?? 8, this.options.config)
        : new InlineExecutor(this.deps, this.logger);
    this.reconcile();
    this.running = true;
    this.loop = this.run();
  }

  /** A write accepted just before a crash may have no job row yet: give every such memory one. */
  private reconcile(): void {
    const orphans = this.db
      .prepare(
        `SELECT id, workspace_id, version FROM memories m WHERE status = 'processing' AND deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = m.id || ':v' || m.version)`,
      )
      .all() as { id: string; workspace_id: string; version: number }[];
    if (orphans.length === 0) return;
    this.logger.warn({ count: orphans.length }, 're-enqueueing writes that had no job');
    void this.enqueue(orphans.map((o) => ({ workspaceId: o.workspace_id, memoryId: o.id, version: o.version })));
  }

  private claim(): (JobRow & { job: WriteJob }) | null {
    const now = Date.now();
    const row = this.statements.claim.get(now + this.leaseMs, now, now) as JobRow | undefined;
    return row ? { ...row, job: JSON.parse(row.payload) as WriteJob } : null;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const claimed = this.active < this.concurrency ? this.claim() : null;
      if (claimed) {
        this.active++;
        const task = this.process(claimed).finally(() => {
          this.active--;
          this.inFlight.delete(task);
          this.wake?.();
        });
        this.inFlight.add(task);
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 250);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
  }

  private async process(row: JobRow & { job: WriteJob }): Promise<void> {
    const { job } = row;
    try {
      const result = await this.executor!.run(job, `${this.owner}-${row.id}`);
      if (result.kind === 'wait') {
        // Not a failure: an earlier write of the scope is unfinished. Give the attempt back and look again shortly.
        this.statements.later.run(Date.now() + 10, Date.now(), row.id);
        return;
      }
      await this.outcomes.completed(job, result.output);
      this.statements.done.run(row.id);
    } catch (error) {
      if (row.attempts >= this.options.attempts) {
        this.statements.failed.run(String(error), Date.now(), row.id);
        await this.outcomes.failed(job, error);
        announceWriteEnded();
      } else {
        const delay = this.backoffMs * 2 ** (row.attempts - 1);
        this.logger.warn({ jobId: row.id, memoryId: job.memoryId, err: error, attempt: row.attempts, retryInMs: delay }, 'write stage failed; retrying');
        this.statements.retry.run(Date.now() + delay, String(error), Date.now(), row.id);
      }
    }
  }

  async counts(): Promise<Record<string, number>> {
    const rows = this.db.prepare(`SELECT state, COUNT(*) AS n FROM jobs GROUP BY state`).all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  /** Stops claiming work, waits for jobs in flight, then stops the threads. */
  async close(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    await this.executor?.close();
  }
}
