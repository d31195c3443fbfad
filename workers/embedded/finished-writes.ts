import type { Logger } from '../../core/logger.js';
import type { CommitOutput } from '../../pipeline/write/types.js';
import { jobIdOf } from '../../storage/sqlite/jobs.js';
import type { SqliteStore } from '../../storage/sqlite/store.js';
import { inWriteTransaction } from '../../storage/sqlite/write-lock.js';
import { WriteOutcomes } from '../outcomes.js';
import type { WriteJob } from '../../core/write-queue.js';

interface FinishedWrite {
  job: WriteJob;
  output: CommitOutput;
}

/**
 * The embedded runner's WriteOutcomes. Writes whose commit has landed are recorded in groups: the job rows deleted and the batch items
 * counted in one transaction per turn of the event loop, instead of two per write. Each of those
 * transactions takes SQLite's single write lock, which the pipeline threads' commits also want.
 *
 * A crash before a group is recorded leaves its job rows: the writes are claimed again, their
 * commit finds them done, and they are recorded then (batch items count once).
 */
export class FinishedWrites extends WriteOutcomes {
  private pending: FinishedWrite[] = [];
  private scheduled: NodeJS.Immediate | null = null;

  constructor(
    private readonly sqlite: SqliteStore,
    logger: Logger,
    private readonly onRecorded: () => void,
  ) {
    super(sqlite, logger);
  }

  /** Resolves at once: the write is recorded with its group, in this turn of the event loop's transaction. */
  override async completed(job: WriteJob, output: CommitOutput): Promise<void> {
    this.pending.push({ job, output });
    this.scheduled ??= setImmediate(() => void this.flush());
  }

  /** Records every write added so far (also called on close). */
  async flush(): Promise<void> {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    const writes = this.pending.splice(0);
    if (writes.length === 0) return;
    const at = new Date().toISOString();
    try {
      await inWriteTransaction(this.sqlite.db, () => {
        this.sqlite.jobs.remove(writes.map(({ job }) => jobIdOf(job)));
        for (const { workspaceId, batchId, indexes } of batchItems(writes)) this.sqlite.batches.recordImportedRows(workspaceId, batchId, indexes, at);
      });
    } catch (error) {
      // The job rows stay claimed: their lease runs out, and the writes are recorded when they are claimed again.
      this.logger.error({ err: error, count: writes.length }, 'recording finished writes failed');
      return;
    }
    for (const { job, output } of writes) this.committed(job, output);
    this.onRecorded();
  }
}

function batchItems(writes: FinishedWrite[]) {
  const batches = new Map<string, { workspaceId: string; batchId: string; indexes: number[] }>();
  for (const { job } of writes) {
    if (job.batchId === undefined || job.itemIndex === undefined) continue;
    const key = `${job.workspaceId}\u0000${job.batchId}`;
    let entry = batches.get(key);
    if (!entry) batches.set(key, (entry = { workspaceId: job.workspaceId, batchId: job.batchId, indexes: [] }));
    entry.indexes.push(job.itemIndex);
  }
  return batches.values();
}
