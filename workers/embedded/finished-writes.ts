import type { Logger } from '../../core/logger.js';
import type { CommitOutput } from '../../pipeline/write/types.js';
import type { SqliteStore } from '../../storage/sqlite/store.js';
import { inWriteTransaction } from '../../storage/sqlite/write-lock.js';
import type { WriteJob } from '../queue.js';

interface FinishedWrite {
  jobId: string;
  job: WriteJob;
  output: CommitOutput;
}

/**
 * Writes whose commit has landed, recorded in groups: the job rows deleted and the batch items
 * counted in one transaction per turn of the event loop, instead of two per write. Each of those
 * transactions takes SQLite's single write lock, which the pipeline threads' commits also want.
 *
 * A crash before a group is recorded leaves its job rows: the writes are claimed again, their
 * commit finds them done, and they are recorded then (batch items count once).
 */
export class FinishedWrites {
  private pending: FinishedWrite[] = [];
  private scheduled: NodeJS.Immediate | null = null;
  private readonly deleteJob;

  constructor(
    private readonly store: SqliteStore,
    private readonly logger: Logger,
    private readonly onRecorded: () => void,
  ) {
    this.deleteJob = store.db.prepare('DELETE FROM jobs WHERE id = ?');
  }

  add(write: FinishedWrite): void {
    this.pending.push(write);
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
      await inWriteTransaction(this.store.db, () => {
        for (const { jobId } of writes) this.deleteJob.run(jobId);
        for (const { workspaceId, batchId, indexes } of batchItems(writes)) this.store.batches.recordImportedRows(workspaceId, batchId, indexes, at);
      });
    } catch (error) {
      // The job rows stay claimed: their lease runs out, and the writes are recorded when they are claimed again.
      this.logger.error({ err: error, count: writes.length }, 'recording finished writes failed');
      return;
    }
    for (const { job, output } of writes) this.logger.debug({ memoryId: job.memoryId, version: job.version, output }, 'write committed');
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
