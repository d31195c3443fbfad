import type { Logger } from '../core/logger.js';
import type { Store } from '../storage/types.js';
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
}
