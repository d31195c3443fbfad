import { FlowProducer, Queue, QueueEvents, Worker, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { hostname } from 'node:os';
import type { AcceptedWrites, MemoryVersions, WriteJob, WriteQueue } from '../../core/write-queue.js';
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
}

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
  }

  async enqueue(jobs: WriteJob[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.flowBatches.add(jobs.map((job) => writeFlow(job, { attempts: this.options.attempts, backoffMs: this.options.backoffMs ?? 200 })));
  }

  /** The store and Redis share no transaction: records first, then the flows (a failure leaves the caller to withdraw the records). */
  async accept({ jobs, ...records }: AcceptedWrites): Promise<void> {
    await this.context.deps.store.acceptWrites(records);
    await this.enqueue(jobs);
  }

  async readable(): Promise<void> {}

  acknowledging(): () => void {
    return () => undefined;
  }

  /** Removes every stage job (waiting, delayed, failed or waiting for children) of erased memories, with their payloads and results. */
  async forgetMemories(_workspaceId: string, memories: MemoryVersions[]): Promise<void> {
    for (const { id: memoryId, version: latest } of memories) {
      for (let version = 1; version <= latest; version++) {
        for (const stage of STAGES) {
          const job = await this.queues[stage].getJob(jobIdOf({ memoryId, version }, stage));
          if (job) await job.remove({ removeChildren: true }).catch(() => job.remove().catch(() => undefined));
        }
      }
    }
    await this.scrubEvents(new Set(memories.map((m) => m.id)));
  }

  /** Queue event streams repeat job ids and stage results: drop the entries of erased memories. */
  private async scrubEvents(memoryIds: Set<string>): Promise<void> {
    if (memoryIds.size === 0) return;
    const belongs = (jobId: string | undefined) => jobId !== undefined && memoryIds.has(jobId.slice(0, jobId.indexOf('-v')));
    for (const stage of STAGES) {
      const key = `${this.context.prefix}:${stage}:events`;
      let start = '-';
      for (;;) {
        const entries = await this.connection.xrange(key, start, '+', 'COUNT', 500);
        const doomed = entries.filter(([, fields]) => belongs(fields[fields.indexOf('jobId') + 1])).map(([id]) => id);
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
    for (const processor of createProcessors(this.context, this.turns)) {
      const worker = new Worker<WriteJob>(processor.stage, (job, token) => processor.process(job, token), {
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
        if (final) void this.context.outcomes.failed(job.data, error).catch((e) => this.context.logger.error({ err: e }, 'recording failure failed'));
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
