/**
 * The write path's queue seam. The API only enqueues; an implementation in workers/ runs
 * the stages of the write flow (pipeline/write/flow.ts): in-process over the embedded store
 * (workers/embedded/), or as BullMQ flows on Redis (workers/bullmq/). composition/ picks one.
 */
import type { WriteRecords } from '../storage/types.js';

export interface WriteJob {
  workspaceId: string;
  memoryId: string;
  /** Memory content version this job processes; results for older versions are discarded. */
  version: number;
  batchId?: string;
  itemIndex?: number;
}

/** A new write as the API accepts it: its records (stored by `Store.acceptWrites`) and its jobs. */
export interface AcceptedWrites extends WriteRecords {
  jobs: WriteJob[];
}

export interface MemoryVersions {
  id: string;
  /** Latest content version; every version up to it may have work queued. */
  version: number;
}

export interface WriteQueue {
  readonly kind: 'embedded' | 'bullmq';
  /** Enqueues jobs in order; durable once this resolves. */
  enqueue(jobs: WriteJob[]): Promise<void>;
  /**
   * Stores new writes and enqueues their jobs; durable once this resolves. When it throws,
   * some of the records may be stored: the caller withdraws them.
   */
  accept(writes: AcceptedWrites): Promise<void>;
  /**
   * Resolves once every write accepted so far can be read. The embedded queue acknowledges a request's writes
   * before moving them into their tables (workers/embedded/accepted-inbox.ts); BullMQ's are stored first.
   */
  readable(): Promise<void>;
  /**
   * A request that acknowledges writes has started (its body may still be arriving); the function returned ends it.
   * Background work sharing the request thread (the embedded inbox's expansion) gives way while any are in progress.
   */
  acknowledging(): () => void;
  /** Drops queued or failed work (and any payload or result) for every version up to `version` of erased memories. */
  forgetMemories(workspaceId: string, memories: MemoryVersions[]): Promise<void>;
  /** Starts processing in this process. */
  startWorkers(): Promise<void>;
  /** Job counts per state, for readiness and dashboards. */
  counts(): Promise<Record<string, number>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
