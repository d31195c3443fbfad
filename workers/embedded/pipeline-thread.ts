import { threadId, workerData } from 'node:worker_threads';
import { createPipelineDeps } from '../../core/pipeline-deps.js';
import type { Config } from '../../core/config.js';
import { createLogger } from '../../core/logger.js';
import { createEmbedder } from '../../pipeline/embedding/index.js';
import { createEntityExtractor, createFactExtractor } from '../../pipeline/extraction/index.js';
import { SqliteStore } from '../../storage/sqlite/store.js';
import { yieldToUrgentWrites } from '../../storage/sqlite/write-lock.js';
import { WriterPriority } from '../../storage/sqlite/writer-priority.js';
import { EmbeddedVectorIndex } from '../../storage/vector/embedded.js';
import type { WriteJob } from '../../core/write-queue.js';
import { niceThisThread } from '../threads/thread-nice.js';
import { executeWrite, type PipelineResult } from './pipeline.js';

/**
 * A pipeline worker thread (run by the embedded runner's piscina pool): it opens its own
 * connection to the embedded database and its own embedder and extractors, and runs whole
 * writes, so stage work never blocks the API thread's event loop.
 */
const { config, writerPriority } = workerData as { config: Config; writerPriority: SharedArrayBuffer };
const CHECKPOINT_EVERY_MS = 10_000;

// Stage work yields the cores to the API thread (requests, acceptances) whenever both want them.
niceThisThread(config.PIPELINE_NICE);

const setUp = async () => {
  // This connection is the thread's alone: a commit's writes can be one transaction.
  const store = SqliteStore.open(config.DATA_DIR, { unitsInTransactions: true });
  // The API thread's writes answer requests: this thread's commits give way to them, and so does its stage work,
  // which would otherwise share the cores with an acceptance that requests are waiting for.
  const priority = new WriterPriority(writerPriority);
  yieldToUrgentWrites(store.db, priority);
  const beforeStage = () => (priority.raised ? priority.standBack() : undefined);
  const embedder = await createEmbedder(config);
  // Loaded eagerly here: a pipeline thread exists to extract.
  const deps = createPipelineDeps(config, store, EmbeddedVectorIndex.openWriter(store.db), embedder, {
    entityExtractor: createEntityExtractor(config),
    factExtractor: createFactExtractor(config),
  });
  const logger = createLogger(config.LOG_LEVEL).child({ component: 'pipeline-thread', threadId });
  // The API thread leaves checkpoints to these threads. Their commits run the automatic ones; this
  // covers stretches with no writes to process, when only the API thread's own writes grow the log.
  setInterval(() => store.db.pragma('wal_checkpoint(PASSIVE)'), CHECKPOINT_EVERY_MS).unref();
  return { deps, logger, beforeStage };
};
let ready = setUp();

export interface PipelineTask {
  job: WriteJob;
  owner: string;
}

export default async function runWrite({ job, owner }: PipelineTask): Promise<PipelineResult> {
  // A set-up that failed (opening the database writes to it: a full disk fails it) is tried again by the next write.
  const { deps, logger, beforeStage } = await ready.catch(() => (ready = setUp()));
  return executeWrite(deps, job, owner, { logger: logger.child({ memoryId: job.memoryId }), beforeStage });
}
