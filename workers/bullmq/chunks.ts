import type { FlowJob } from 'bullmq';
import type { Redis } from 'ioredis';
import type { WriteJob } from '../../core/write-queue.js';
import type { Stage } from '../../pipeline/write/flow.js';
import { flowTree, type FlowOptions } from './flows.js';

/**
 * A batch's writes of one user scope, in arrival order, run as one flow: each stage job handles all of them
 * (the embedder and the index see them in one call), and each write still ends `ready` or `error` on its own.
 * A batch of 500 turns is then a few dozen jobs instead of three thousand.
 */
export interface ChunkJob {
  /** The chunk's id: its first write's (a write belongs to one chunk). */
  chunk: string;
  writes: WriteJob[];
}

/** What a stage job carries: one write (single writes, and flows queued by earlier versions) or a chunk. */
export type StageJobData = WriteJob | ChunkJob;

export const isChunk = (data: StageJobData): data is ChunkJob => Array.isArray((data as ChunkJob).writes);

/** The writes a stage job handles, in order. */
export const writesOf = (data: StageJobData): WriteJob[] => (isChunk(data) ? data.writes : [data]);

/** A write that failed for good in a stage of its chunk: its later stages pass this on, its commit records it. */
export interface ItemFailed {
  failed: string;
}

/** A chunk stage's result: one entry per write, in the chunk's order. */
export interface ChunkOutput<T = unknown> {
  /** The chunk's writes: a queue's event stream repeats results, and an erasure finds its writes' entries by these. */
  memoryIds: string[];
  items: (T | ItemFailed)[];
}

export const isItemFailed = (value: unknown): value is ItemFailed => typeof (value as ItemFailed | null)?.failed === 'string';

/** BullMQ job ids may not contain ':'. The `chunk-` prefix keeps them apart from single writes' ids. */
export const chunkIdOf = (first: Pick<WriteJob, 'memoryId' | 'version'>) => `chunk-${first.memoryId}-v${first.version}`;
export const chunkJobIdOf = (chunk: string, stage: Stage) => `${chunk}-${stage}`;

/** A scope's first chunk in a request holds this many writes at most, each next one twice as many, up to the chunk size. */
const FIRST_CHUNK_SIZE = 5;

/**
 * Splits accepted writes into chunks of at most `size` writes of one user scope each, in arrival order within
 * a scope. `scopeOf` names a write's user scope. A scope's chunks grow (5, 10, 20, … up to `size`): a chunk's
 * first write commits only once every stage before the commit has run for the whole chunk, so small first chunks
 * let a batch show progress early. Chunks come out first chunks of every scope first, then second ones, and so
 * on, which is the order the stage queues take them in.
 */
export function chunkWrites(jobs: WriteJob[], scopeOf: (job: WriteJob) => string, size: number): WriteJob[][] {
  const byScope = new Map<string, WriteJob[][]>();
  for (const job of jobs) {
    const key = scopeOf(job);
    let chunks = byScope.get(key);
    if (!chunks) byScope.set(key, (chunks = [[]]));
    const room = Math.min(size, FIRST_CHUNK_SIZE * 2 ** (chunks.length - 1));
    if (chunks[chunks.length - 1].length >= room) chunks.push([]);
    chunks[chunks.length - 1].push(job);
  }
  const scopes = [...byScope.values()];
  const ranks = Math.max(0, ...scopes.map((chunks) => chunks.length));
  return Array.from({ length: ranks }, (_, rank) => scopes.flatMap((chunks) => (rank < chunks.length ? [chunks[rank]] : []))).flat();
}

export const chunkOf = (writes: WriteJob[]): ChunkJob => ({ chunk: chunkIdOf(writes[0]), writes });

/** A chunk as a BullMQ flow: the write flow's tree, each stage job carrying the chunk. */
export function chunkFlow(chunk: ChunkJob, options: FlowOptions): FlowJob {
  return flowTree(chunk, (stage) => chunkJobIdOf(chunk.chunk, stage), options);
}

/** The chunk id in a chunk stage job's id, else undefined. */
export const chunkOfJobId = (jobId: string) => /^(chunk-.+-v\d+)-[a-z0-9-]+$/.exec(jobId)?.[1];

/**
 * Which chunk each queued write is in (a Redis hash, memory id → chunk id), so that an erasure finds the chunk
 * jobs holding an erased write. A chunk's entries go when its commit ends, or with its erasure; a chunk that
 * failed for good keeps them, as its failed jobs are kept.
 */
export class ChunkIndex {
  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  async add(chunks: ChunkJob[]): Promise<void> {
    const fields: string[] = [];
    for (const { chunk, writes } of chunks) for (const w of writes) fields.push(w.memoryId, chunk);
    if (fields.length > 0) await this.redis.hset(this.key, ...fields);
  }

  /** The chunks holding any of these memories. */
  async chunksOf(memoryIds: string[]): Promise<string[]> {
    const found = new Set<string>();
    for (let i = 0; i < memoryIds.length; i += 1_000) {
      for (const chunk of await this.redis.hmget(this.key, ...memoryIds.slice(i, i + 1_000))) if (chunk) found.add(chunk);
    }
    return [...found];
  }

  async remove(memoryIds: string[]): Promise<void> {
    for (let i = 0; i < memoryIds.length; i += 1_000) await this.redis.hdel(this.key, ...memoryIds.slice(i, i + 1_000));
  }
}
