import { DelayedError, type Job } from 'bullmq';
import type { Logger } from '../../core/logger.js';
import { timeStage } from '../../core/metrics.js';
import { isStoreUnreachable } from '../../core/outages.js';
import { FINAL_STAGE, ORDERING_POINT, STAGES, WRITE_FLOW, runStage, runStageForEach, type Stage, type StageOutputs } from '../../pipeline/write/flow.js';
import { EarlierWritePending } from '../../pipeline/write/scope-order.js';
import type { PipelineDeps } from '../../pipeline/write/stages.js';
import type { WriteOutcomes } from '../outcomes.js';
import type { WriteJob } from '../../core/write-queue.js';
import { isChunk, isItemFailed, writesOf, type ChunkIndex, type ChunkJob, type ChunkOutput, type ItemFailed, type StageJobData } from './chunks.js';
import { scopeToken, turnRetryDelayMs, type TurnWaiters } from './turn-waiters.js';

export interface ProcessorContext {
  prefix: string;
  deps: PipelineDeps;
  outcomes: WriteOutcomes;
  logger: Logger;
}

/** How soon a stage that could not reach the database is tried again. */
const STORE_RETRY_MS = 1_000;

/** Whether this run of the job is its last attempt: a write failing now ends in `error`. */
const isFinalAttempt = (job: Job) => job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A chunk stage's results as its output, one entry per write. The whole chunk waits instead when the database
 * is unreachable, and runs again while it has attempts left (its writes' stages are idempotent); on its last
 * attempt a write that failed is marked, and ends in `error` at its commit while the others go on.
 */
function settle<T>(writes: WriteJob[], results: PromiseSettledResult<T | ItemFailed>[], finalAttempt: boolean): ChunkOutput<T> {
  const failures = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const unreachable = failures.find(isStoreUnreachable);
  if (unreachable !== undefined) throw unreachable;
  if (failures.length > 0 && !finalAttempt) throw failures[0];
  return { memoryIds: writes.map((w) => w.memoryId), items: results.map((r) => (r.status === 'fulfilled' ? r.value : { failed: messageOf(r.reason) })) };
}

/** One pipeline stage as a BullMQ processor: reads its children's results, runs the stage function for its write or chunk. */
export abstract class StageProcessor<Output = unknown> {
  abstract readonly stage: Stage;

  constructor(
    protected readonly ctx: ProcessorContext,
    protected readonly turns: TurnWaiters,
  ) {}

  protected abstract run(job: Job<WriteJob>, children: ChildResults): Promise<Output>;
  protected abstract runChunk(job: Job<ChunkJob>, children: ChildResults): Promise<Output>;

  async process(job: Job<StageJobData>, token?: string): Promise<Output> {
    const started = performance.now();
    let output: Output;
    try {
      const children = new ChildResults(this.ctx.prefix, () => job.getChildrenValues());
      output = await timeStage(this.stage, () =>
        isChunk(job.data) ? this.runChunk(job as Job<ChunkJob>, children) : this.run(job as Job<WriteJob>, children),
      );
    } catch (error) {
      if (error instanceof EarlierWritePending) {
        // Not a failure: wait for the earlier write without spending an attempt. The scope's next
        // commit promotes the earliest waiting write; the delay only covers a missed wake-up.
        const scope = error.scope === undefined ? undefined : scopeToken(error.scope);
        const writes = writesOf(job.data);
        const waiting = writes.find((w) => w.memoryId === error.memoryId) ?? writes[0];
        const waits = scope === undefined ? 0 : this.turns.add(scope, error.seq ?? 0, job, waiting);
        // Once woken (or its delay over) it must run before the scope's later commits, which only
        // wait behind it: without a priority it goes to the wait list, served before prioritized jobs.
        if (job.priority !== 0) await job.changePriority({ priority: 0 });
        await job.moveToDelayed(Date.now() + turnRetryDelayMs(waits), token);
        // The earlier write may have committed between the check and the registration.
        if (scope !== undefined) await this.turns.wakeNext(scope);
        throw new DelayedError();
      }
      this.turns.done(undefined, job.id!);
      if (isStoreUnreachable(error)) {
        // Not the write's failure: it waits for the database without spending an attempt, however long the outage.
        this.ctx.logger.warn({ stage: this.stage, jobId: job.id, err: error }, 'database unreachable; the stage waits for it');
        await job.moveToDelayed(Date.now() + STORE_RETRY_MS, token);
        throw new DelayedError();
      }
      throw error;
    }
    // Six lines per write at info would cost the worker more than a stage's queue work; the stage
    // durations are in the engram_pipeline_stage_duration_seconds metric.
    this.ctx.logger.debug(
      { stage: this.stage, jobId: job.id, memoryIds: writesOf(job.data).map((w) => w.memoryId), attempt: job.attemptsMade + 1, ms: Math.round(performance.now() - started) },
      'stage finished',
    );
    return output;
  }
}

/**
 * Children's return values, keyed by the queue they ran on. Read from Redis on first use:
 * the extraction stages have no children and save the round trip.
 */
export class ChildResults {
  private values: Promise<Record<string, unknown>> | undefined;

  constructor(
    private readonly queuePrefix: string,
    private readonly read: () => Promise<Record<string, unknown>>,
  ) {}

  /** The outputs of the stages `stage` needs (flow.ts), read in the order it lists them. */
  async inputsOf(stage: Stage): Promise<StageOutputs> {
    const inputs: Partial<Record<Stage, unknown>> = {};
    for (const need of WRITE_FLOW[stage].needs) inputs[need] = await this.of(need);
    return inputs as StageOutputs;
  }

  /** For each of a chunk's `count` writes, the outputs of the stages `stage` needs, or how the write failed in one of them. */
  async chunkInputsOf(stage: Stage, count: number): Promise<(StageOutputs | ItemFailed)[]> {
    const inputs: (Partial<Record<Stage, unknown>> | ItemFailed)[] = Array.from({ length: count }, () => ({}));
    for (const need of WRITE_FLOW[stage].needs) {
      const { items } = await this.of<ChunkOutput>(need);
      if (items.length !== count) throw new Error(`stage ${need} returned ${items.length} results for ${count} writes`);
      items.forEach((item, i) => {
        const input = inputs[i];
        if (isItemFailed(input)) return;
        if (isItemFailed(item)) inputs[i] = item;
        else input[need] = item;
      });
    }
    return inputs as (StageOutputs | ItemFailed)[];
  }

  async of<T>(stage: Stage): Promise<T> {
    this.values ??= this.read();
    const prefix = `${this.queuePrefix}:${stage}:`;
    const entry = Object.entries(await this.values).find(([key]) => key.startsWith(prefix));
    if (!entry) throw new Error(`missing result of stage ${stage}`);
    return entry[1] as T;
  }
}

/** A stage of the write flow that needs nothing from other writes: it runs as soon as its children have. */
class FlowStageProcessor extends StageProcessor {
  constructor(
    ctx: ProcessorContext,
    turns: TurnWaiters,
    readonly stage: Stage,
  ) {
    super(ctx, turns);
  }

  protected async run(job: Job<WriteJob>, children: ChildResults) {
    return runStage(this.stage, this.ctx.deps, job.data, await children.inputsOf(this.stage), { owner: `bullmq-${job.id}` });
  }

  /** The stage for each of the chunk's writes; a write that failed in an earlier stage is passed on. */
  protected async runChunk(job: Job<ChunkJob>, children: ChildResults): Promise<ChunkOutput> {
    const { writes } = job.data;
    const inputs = await children.chunkInputsOf(this.stage, writes.length);
    const runnable = writes.flatMap((_, i) => (isItemFailed(inputs[i]) ? [] : [i]));
    const ran = await runStageForEach(
      this.stage,
      this.ctx.deps,
      runnable.map((i) => writes[i]),
      runnable.map((i) => inputs[i] as StageOutputs),
      { owner: `bullmq-${job.id}` },
    );
    const results: PromiseSettledResult<unknown>[] = inputs.map((input) => ({ status: 'fulfilled', value: input }));
    runnable.forEach((i, k) => (results[i] = ran[k]));
    return settle(writes, results, isFinalAttempt(job));
  }
}

/**
 * The stage at BullMQ's ordering point (flow.ts), which is the final stage: it waits for the write's turn in
 * its user scope, records the write's success, and its landing wakes the scope's next write.
 */
class OrderedFinalStageProcessor extends StageProcessor {
  readonly stage = ORDERING_POINT.bullmq;

  constructor(
    ctx: ProcessorContext,
    turns: TurnWaiters,
    private readonly chunks: ChunkIndex,
  ) {
    super(ctx, turns);
  }

  protected async run(job: Job<WriteJob>, children: ChildResults) {
    // While an earlier write of the scope is unfinished this job waits and is retried:
    // find that out before fetching and parsing the children's results.
    const { turn, scopeKey } = await this.turns.take(job.data);
    const scope = scopeKey === undefined ? undefined : scopeToken(scopeKey);
    this.turns.done(scope, job.id!);
    const inputs = await children.inputsOf(this.stage);
    try {
      const output = await runStage(this.stage, this.ctx.deps, job.data, inputs, { owner: `bullmq-${job.id}`, turn });
      await this.ctx.outcomes.completed(job.data, output);
      // `scope` (hashed) lets every worker process wake the scope's next write (see TurnWaiters).
      return { skipped: output.skipped, scope };
    } finally {
      // The scope's next write, parked in this process, need not wait for the event.
      this.turns.ended(scopeKey);
    }
  }

  /**
   * Commits the chunk's writes one by one, each in its turn. A write that already ended (a chunk run again after
   * a crash, or after waiting for an earlier write of its scope) has its outcome recorded again, which counts once.
   */
  protected async runChunk(job: Job<ChunkJob>, children: ChildResults) {
    const { writes } = job.data;
    const finalAttempt = isFinalAttempt(job);
    const ended = await this.ctx.outcomes.alreadyEnded(writes);
    let inputs: (StageOutputs | ItemFailed)[] | undefined;
    let scopeKey: string | undefined;
    for (const [i, write] of writes.entries()) {
      if (ended.has(write.memoryId)) {
        await this.ctx.outcomes.recordEnded(write, ended.get(write.memoryId)!);
        continue;
      }
      inputs ??= await children.chunkInputsOf(this.stage, writes.length);
      const input = inputs[i];
      if (isItemFailed(input)) {
        await this.ctx.outcomes.failed(write, new Error(input.failed));
        continue;
      }
      const taken = await this.turns.take(write);
      scopeKey ??= taken.scopeKey;
      try {
        const output = await runStage(this.stage, this.ctx.deps, write, input, { owner: `bullmq-${job.id}`, turn: taken.turn });
        await this.ctx.outcomes.completed(write, output);
      } catch (error) {
        if (!finalAttempt || isStoreUnreachable(error)) throw error;
        await this.ctx.outcomes.failed(write, error);
      } finally {
        this.turns.ended(taken.scopeKey);
      }
    }
    const scope = scopeKey === undefined ? undefined : scopeToken(scopeKey);
    this.turns.done(scope, job.id!);
    await this.chunks.remove(writes.map((w) => w.memoryId));
    return { scope, memoryIds: writes.map((w) => w.memoryId) };
  }
}

// The commit's return value ({ skipped, scope }) is what the commit queue's `completed` event carries to
// every worker process: only the final stage can be the ordering point, whose landing ends a write's turn.
const orderingPointIsFinal: typeof FINAL_STAGE = ORDERING_POINT.bullmq;

export function createProcessors(ctx: ProcessorContext, turns: TurnWaiters, chunks: ChunkIndex): StageProcessor[] {
  return STAGES.map((stage) => (stage === orderingPointIsFinal ? new OrderedFinalStageProcessor(ctx, turns, chunks) : new FlowStageProcessor(ctx, turns, stage)));
}
