import { FlowProducer, Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import type { AcceptedWrites, MemoryVersions, WriteJob, WriteQueue } from '../../core/write-queue.js';
import { scopeLockKey, scopeOf } from '../../pipeline/write/scope-order.js';
import { ChunkIndex, chunkFlow, chunkJobIdOf, chunkOf, chunkOfJobId, chunkWrites, isChunk, type ChunkJob } from './chunks.js';
import { FlowBatches } from './flow-batches.js';
import { STAGES, jobIdOf, writeFlow, type Stage } from './flows.js';
import { createProcessors, type ProcessorContext } from './processors.js';
import { TurnWaiters } from './turn-waiters.js';

/** Recent job events kept per queue for dashboards; bounded so results do not pile up in Redis. */
const EVENTS_MAX_LEN = 2_000;

export interface BullMqOptions {
  attempts: number;
  backoffMs?: number;
  /** Per-stage worker concurrency; missing stages use `defaultConcurrency`. */
  concurrency?: Partial<Record<Stage, number>>;
  defaultConcurrency?: number;
  /** How long a job's lock lives without renewal; a killed worker's jobs are retried after this. */
  lockDurationMs?: number;
  /** At most this many writes of one user scope share a flow (chunks.ts); 1 gives each write its own. */
  chunkSize?: number;
}

/** Writes per chunk unless configured (WRITE_CHUNK_SIZE): docs/benchmarks.md has the measurement behind it. */
export const DEFAULT_CHUNK_SIZE = 50;

/**
 * An embed job spends most of its time waiting for the index to make its vector searchable (Elasticsearch's
 * `refresh: wait_for`, up to the 1 s refresh interval), not on the CPU: more of them wait side by side.
 */
const DEFAULT_CONCURRENCY: Partial<Record<Stage, number>> = { embed: 16 };

/** Parses STAGE_CONCURRENCY such as "embed=4,commit=1". */
export function parseStageConcurrency(spec: string): Partial<Record<Stage, number>> {
  const out: Partial<Record<Stage, number>> = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = part.split('=');
    const n = Number(value);
    if (!(STAGES as readonly string[]).includes(name) || !Number.isInteger(n) || n < 1) {
      throw new Error(`STAGE_CONCURRENCY: "${part}" is not <stage>=<positive integer> (stages: ${STAGES.join(', ')})`);
    }
    out[name as Stage] = n;
  }
  return out;
}

/** The write pipeline as BullMQ flows on Redis: API processes enqueue, worker processes run stages. */
export class BullMqQueue implements WriteQueue {
  readonly kind = 'bullmq' as const;
  readonly queues: Record<Stage, Queue>;
  private readonly flows: FlowProducer;
  private readonly flowBatches: FlowBatches;
  private readonly workers: Worker[] = [];
  private readonly turns: TurnWaiters;
  private readonly chunks: ChunkIndex;
  private commitEvents: QueueEvents | null = null;

  constructor(
    private readonly connection: Redis,
    private readonly context: ProcessorContext,
    private readonly options: BullMqOptions,
  ) {
    const conn = connection as unknown as ConnectionOptions;
    const streams = { events: { maxLen: EVENTS_MAX_LEN } };
    this.queues = Object.fromEntries(STAGES.map((stage) => [stage, new Queue(stage, { connection: conn, prefix: context.prefix, streams })])) as Record<
      Stage,
      Queue
    >;
    this.flows = new FlowProducer({ connection: conn, prefix: context.prefix });
    this.flowBatches = new FlowBatches((flows) => this.flows.addBulk(flows));
    // One commit slot stays free for the earlier writes that parked commits wait for.
    this.turns = new TurnWaiters(context.deps.store, this.concurrencyOf('commit') - 1);
    this.chunks = new ChunkIndex(connection, `${context.prefix}:write-chunks`);
  }

  private get flowOptions() {
    return { attempts: this.options.attempts, backoffMs: this.options.backoffMs ?? 200 };
  }

  async enqueue(jobs: WriteJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.flowBatches.add(jobs.map((job) => writeFlow(job, this.flowOptions)));
  }

  /**
   * The store and Redis share no transaction: records first, then the flows (a failure leaves the caller to withdraw the records).
   * A request's writes of one user scope go in chunks (chunks.ts); a write alone in its scope gets a flow of its own.
   */
  async accept({ jobs, ...records }: AcceptedWrites): Promise<void> {
    await this.context.deps.store.acceptWrites(records);
    const scopes = new Map(records.memories.map((m) => [m.id, scopeLockKey(scopeOf(m))]));
    const groups = chunkWrites(jobs, (job) => scopes.get(job.memoryId) ?? job.memoryId, this.options.chunkSize ?? DEFAULT_CHUNK_SIZE);
    const chunks = groups.filter((writes) => writes.length > 1).map(chunkOf);
    await this.chunks.add(chunks);
    await this.flowBatches.add([
      ...groups.filter((writes) => writes.length === 1).map(([job]) => writeFlow(job, this.flowOptions)),
      ...chunks.map((chunk) => chunkFlow(chunk, this.flowOptions)),
    ]);
  }

  async readable(): Promise<void> {}

  acknowledging(): () => void {
    return () => undefined;
  }

  /**
   * Removes every stage job (waiting, delayed, failed or waiting for children) of erased memories, with their payloads and
   * results. A chunk goes when all its writes are erased (a user's erasure erases its chunks whole: a chunk is one user
   * scope's); a chunk that still holds other writes runs on and skips the erased ones, and its results go when it ends.
   */
  async forgetMemories(_workspaceId: string, memories: MemoryVersions[]): Promise<void> {
    const erased = new Set(memories.map((m) => m.id));
    for (const { id: memoryId, version: latest } of memories) {
      for (let version = 1; version <= latest; version++) {
        for (const stage of STAGES) await this.removeJob(stage, jobIdOf({ memoryId, version }, stage));
      }
    }
    const chunks = await this.chunks.chunksOf([...erased]);
    for (const chunk of chunks) {
      const commit = await this.queues.commit.getJob(chunkJobIdOf(chunk, 'commit'));
      const writes = commit && isChunk(commit.data) ? (commit.data as ChunkJob).writes : [];
      if (!writes.every((w) => erased.has(w.memoryId))) continue;
      for (const stage of STAGES) await this.removeJob(stage, chunkJobIdOf(chunk, stage));
    }
    await this.chunks.remove([...erased]);
    await this.scrubEvents(erased, new Set(chunks));
  }

  private async removeJob(stage: Stage, jobId: string): Promise<void> {
    const job = await this.queues[stage].getJob(jobId);
    if (job) await job.remove({ removeChildren: true }).catch(() => job.remove().catch(() => undefined));
  }

  /**
   * Queue event streams repeat job ids and stage results: drop the entries of erased memories, and the entries of chunk jobs
   * (by their id while the chunk runs, by the memory ids their results carry once it ended) that held any of them.
   */
  private async scrubEvents(memoryIds: Set<string>, chunks: Set<string>): Promise<void> {
    if (memoryIds.size === 0) return;
    const heldErased = (fields: string[]) => {
      const value = fields[fields.indexOf('returnvalue') + 1];
      if (fields.indexOf('returnvalue') < 0 || !value?.includes('memoryIds')) return false;
      try {
        return ((JSON.parse(value) as { memoryIds?: unknown }).memoryIds as string[] | undefined)?.some((id) => memoryIds.has(id)) === true;
      } catch {
        return false;
      }
    };
    const belongs = (fields: string[]) => {
      const jobId = fields[fields.indexOf('jobId') + 1];
      if (jobId === undefined) return false;
      const chunk = chunkOfJobId(jobId);
      return chunk === undefined ? memoryIds.has(jobId.slice(0, jobId.indexOf('-v'))) : chunks.has(chunk) || heldErased(fields);
    };
    for (const stage of STAGES) {
      const key = `${this.context.prefix}:${stage}:events`;
      let start = '-';
      for (;;) {
        const entries = await this.connection.xrange(key, start, '+', 'COUNT', 500);
        const doomed = entries.filter(([, fields]) => belongs(fields)).map(([id]) => id);
        if (doomed.length) await this.connection.xdel(key, ...doomed);
        if (entries.length < 500) break;
        start = `(${entries[entries.length - 1][0]}`;
      }
    }
  }

  async startWorkers(): Promise<void> {
    if (this.workers.length) return;
    const conn = this.connection.duplicate({ maxRetriesPerRequest: null }) as unknown as ConnectionOptions;
    const lockMs = this.options.lockDurationMs ?? 5_000;
    // Every landed commit, from any worker process, wakes the next waiting write of its scope here.
    this.commitEvents = new QueueEvents('commit', { connection: this.connection.duplicate({ maxRetriesPerRequest: null }) as unknown as ConnectionOptions, prefix: this.context.prefix });
    this.commitEvents.on('completed', ({ returnvalue }) => {
      const value = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as { scope?: string } | null;
      if (value?.scope) this.turns.landed(value.scope);
    });
    for (const processor of createProcessors(this.context, this.turns, this.chunks)) {
      const worker = new Worker<WriteJob | ChunkJob>(processor.stage, (job, token) => processor.process(job, token), {
        connection: conn,
        prefix: this.context.prefix,
        // Recorded on each job it takes (`processedBy`), so a stuck job names its worker process.
        name: `${hostname()}-${process.pid}`,
        concurrency: this.concurrencyOf(processor.stage),
        // The lock is renewed every lockDuration/2; once it lapses (a killed worker), the next
        // stalled check of any live worker moves the job back to waiting.
        lockDuration: lockMs,
        maxStalledCount: 10,
        stalledInterval: Math.max(500, Math.floor(lockMs / 4)),
      });
      worker.on('failed', (job, error) => {
        if (!job) return;
        const final = job.attemptsMade >= (job.opts.attempts ?? 1);
        this.context.logger.warn({ stage: processor.stage, jobId: job.id, attempt: job.attemptsMade, final, err: error }, 'stage failed');
        if (!final) return;
        const recorded = isChunk(job.data) ? this.context.outcomes.failedUnlessEnded(job.data.writes, error) : this.context.outcomes.failed(job.data, error);
        void recorded.catch((e) => this.context.logger.error({ err: e }, 'recording failure failed'));
      });
      worker.on('error', (error) => this.context.logger.error({ err: error, stage: processor.stage }, 'worker error'));
      this.workers.push(worker);
    }
    await Promise.all([...this.workers.map((w) => w.waitUntilReady()), this.commitEvents.waitUntilReady()]);
  }

  private concurrencyOf(stage: Stage): number {
    return this.options.concurrency?.[stage] ?? this.options.defaultConcurrency ?? DEFAULT_CONCURRENCY[stage] ?? 4;
  }

  async counts(): Promise<Record<string, number>> {
    const totals: Record<string, number> = {};
    for (const stage of STAGES) {
      const counts = await this.queues[stage].getJobCounts('waiting', 'active', 'delayed', 'failed', 'waiting-children');
      for (const [state, n] of Object.entries(counts)) totals[`${stage}:${state}`] = n;
    }
    return totals;
  }

  async ping(): Promise<void> {
    const pong = await this.connection.ping();
    if (pong !== 'PONG') throw new Error(`redis answered ${pong}`);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    await this.commitEvents?.close();
    await this.flows.close();
    await Promise.all(Object.values(this.queues).map((q) => q.close()));
  }
}
