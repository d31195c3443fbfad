import type { Logger } from '../core/logger.js';
import type { MemoryRecord, Store } from '../storage/types.js';
import type { CommitOutput } from '../pipeline/write/types.js';
import type { WriteJob } from '../core/write-queue.js';

/**
 * What happens after a write's pipeline ends, whichever runner ran it: the one place a runner reports that a
 * write's final stage landed (`completed`) or that its last attempt failed (`failed`). This records each write
 * on its own (BullMQ); the embedded runner's FinishedWrites records them in groups.
 */
export class WriteOutcomes {
  constructor(
    protected readonly store: Store,
    protected readonly logger: Logger,
  ) {}

  /** The write's final stage landed: a batch item counts as imported. */
  async completed(job: WriteJob, output: CommitOutput): Promise<void> {
    if (job.batchId !== undefined && job.itemIndex !== undefined) {
      await this.store.batches.recordItem(job.workspaceId, job.batchId, job.itemIndex, { ok: true }, new Date().toISOString());
    }
    this.committed(job, output);
  }

  protected committed(job: WriteJob, output: CommitOutput): void {
    this.logger.debug({ memoryId: job.memoryId, version: job.version, output }, 'write committed');
  }

  /** The last attempt failed: the memory ends in `error`, a batch item counts as failed. */
  async failed(job: WriteJob, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.logger.error({ memoryId: job.memoryId, version: job.version, err: error }, 'write failed');
    await this.store.memories.update(job.workspaceId, job.memoryId, { status: 'error', error: message }, job.version);
    if (job.batchId !== undefined && job.itemIndex !== undefined) {
      await this.store.batches.recordItem(
        job.workspaceId,
        job.batchId,
        job.itemIndex,
        { ok: false, error: { index: job.itemIndex, memory_id: job.memoryId, message } },
        new Date().toISOString(),
      );
    }
  }

  /** Of these writes (one workspace), those whose memory already ended at their version (`ready` or `error`), by memory id. */
  async alreadyEnded(jobs: WriteJob[]): Promise<Map<string, MemoryRecord>> {
    if (jobs.length === 0) return new Map();
    const version = new Map(jobs.map((j) => [j.memoryId, j.version]));
    const memories = await this.store.memories.getMany(jobs[0].workspaceId, [...version.keys()]);
    return new Map(memories.filter((m) => !m.deletedAt && m.version === version.get(m.id) && m.status !== 'processing').map((m) => [m.id, m]));
  }

  /** A write found ended (by an earlier run of its job): its batch item's outcome, recorded again (it counts once). */
  async recordEnded(job: WriteJob, memory: MemoryRecord): Promise<void> {
    if (job.batchId === undefined || job.itemIndex === undefined) return;
    const outcome =
      memory.status === 'ready'
        ? ({ ok: true } as const)
        : ({ ok: false, error: { index: job.itemIndex, memory_id: job.memoryId, message: memory.error ?? 'failed' } } as const);
    await this.store.batches.recordItem(job.workspaceId, job.batchId, job.itemIndex, outcome, new Date().toISOString());
  }

  /** The last attempt of a job holding several writes failed: those that have not ended end in `error`. */
  async failedUnlessEnded(jobs: WriteJob[], error: unknown): Promise<void> {
    const ended = await this.alreadyEnded(jobs);
    for (const job of jobs) if (!ended.has(job.memoryId)) await this.failed(job, error);
  }
}
