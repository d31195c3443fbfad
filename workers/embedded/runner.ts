import type Database from 'better-sqlite3';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/logger.js';
import { timeStage } from '../../core/metrics.js';
import {
  commitStage,
  contradictionStage1,
  contradictionStage2,
  embedStage,
  extractEntitiesStage,
  extractFactsStage,
  checkTurn,
  EarlierWritePending,
  type PipelineDeps,
} from '../../pipeline/write/stages.js';
import type { CommitOutput, WriteRef } from '../../pipeline/write/types.js';
import type { WriteOutcomes } from '../outcomes.js';
import type { MemoryVersions, WriteJob, WriteQueue } from '../queue.js';

export interface EmbeddedRunnerOptions {
  concurrency: number;
  attempts: number;
  /** A claimed job whose runner vanished is retried after this long. */
  leaseMs?: number;
  backoffMs?: number;
}

interface JobRow {
  id: string;
  payload: string;
  attempts: number;
}

/** Runs the six stages in their dependency order, in this process. */
export async function runPipeline(deps: PipelineDeps, ref: WriteRef, owner: string, logger?: Logger): Promise<CommitOutput> {
  const timings: Record<string, number> = {};
  const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await timeStage(stage, work);
    } finally {
      timings[stage] = Math.round((performance.now() - started) * 100) / 100;
    }
  };
  await checkTurn(deps.store, ref);
  const [embed, entities, facts] = await Promise.all([
    timed('embed', () => embedStage(deps, ref)),
    timed('entities', () => extractEntitiesStage(deps, ref)),
    timed('facts', () => extractFactsStage(deps, ref)),
  ]);
  const stage1 = await timed('contradiction1', () => contradictionStage1(deps, ref, facts));
  const stage2 = await timed('contradiction2', () => contradictionStage2(deps, ref, stage1));
  const output = await timed('commit', () => commitStage(deps, ref, { embed, entities, contradiction: stage2 }, owner));
  logger?.info({ memoryId: ref.memoryId, version: ref.version, timings }, 'pipeline finished');
  return output;
}

/**
 * The embedded queue: durable job rows in the embedded database, processed by
 * an in-process loop. A crash or restart resumes every accepted, unfinished write.
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
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly db: Database.Database,
    private readonly deps: PipelineDeps,
    private readonly outcomes: WriteOutcomes,
    private readonly logger: Logger,
    private readonly options: EmbeddedRunnerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.backoffMs = options.backoffMs ?? 200;
  }

  async enqueue(jobs: WriteJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = Date.now();
    const insert = this.db.prepare(
      `INSERT OR IGNORE INTO jobs (id, queue, payload, state, attempts, run_after, created_at, updated_at, order_key)
       VALUES (?, 'write', ?, 'pending', 0, ?, ?, ?, (SELECT COALESCE(MAX(order_key), 0) + 1 FROM jobs))`,
    );
    this.db.transaction(() => {
      for (const job of jobs) insert.run(`${job.memoryId}:v${job.version}`, JSON.stringify(job), now, now, now);
    }).immediate();
    this.wake?.();
  }

  async forgetMemories(workspaceId: string, memories: MemoryVersions[]): Promise<void> {
    const del = this.db.prepare(`DELETE FROM jobs WHERE json_extract(payload, '$.workspaceId') = ? AND json_extract(payload, '$.memoryId') = ?`);
    this.db.transaction(() => {
      for (const { id } of memories) del.run(workspaceId, id);
    }).immediate();
  }

  async startWorkers(): Promise<void> {
    if (this.running) return;
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
    const row = this.db
      .prepare(
        `UPDATE jobs SET state = 'running', run_after = ?, updated_at = ?, attempts = attempts + 1
         WHERE id = (SELECT id FROM jobs WHERE state IN ('pending', 'running') AND run_after <= ? ORDER BY order_key LIMIT 1)
         RETURNING id, payload, attempts`,
      )
      .get(now + this.leaseMs, now, now) as JobRow | undefined;
    return row ? { ...row, job: JSON.parse(row.payload) as WriteJob } : null;
  }

  private async run(): Promise<void> {
    while (this.running) {
      const claimed = this.active < this.options.concurrency ? this.claim() : null;
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
    const log = this.logger.child({ jobId: row.id, memoryId: job.memoryId });
    try {
      const output = await runPipeline(this.deps, job, `${this.owner}-${row.id}`, log);
      await this.outcomes.completed(job, output);
      this.db.prepare('DELETE FROM jobs WHERE id = ?').run(row.id);
    } catch (error) {
      if (error instanceof EarlierWritePending) {
        // Not a failure: give the attempt back and look again shortly.
        this.db
          .prepare(`UPDATE jobs SET state = 'pending', run_after = ?, attempts = attempts - 1, updated_at = ? WHERE id = ?`)
          .run(Date.now() + 10, Date.now(), row.id);
        return;
      }
      if (row.attempts >= this.options.attempts) {
        this.db.prepare(`UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ?`).run(String(error), Date.now(), row.id);
        await this.outcomes.failed(job, error);
      } else {
        const delay = this.backoffMs * 2 ** (row.attempts - 1);
        log.warn({ err: error, attempt: row.attempts, retryInMs: delay }, 'write stage failed; retrying');
        this.db
          .prepare(`UPDATE jobs SET state = 'pending', run_after = ?, last_error = ?, updated_at = ? WHERE id = ?`)
          .run(Date.now() + delay, String(error), Date.now(), row.id);
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

  /** Stops claiming work and waits for jobs in flight. */
  async close(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }
}
