import { performance } from 'node:perf_hooks';
import type { Logger } from '../../core/logger.js';
import { isStorageFull } from '../../core/outages.js';
import { EarlierWritePending } from '../../pipeline/write/scope-order.js';
import type { PipelineDeps } from '../../pipeline/write/stages.js';
import { ORDERING_POINT, FINAL_STAGE, runStage, splitAt, type Stage, type StageOutputs } from '../../pipeline/write/flow.js';
import type { CommitOutput, WriteRef } from '../../pipeline/write/types.js';
import { ThreadTurns } from './turns.js';

export interface PipelineRunOptions {
  logger?: Logger;
  /** How long a write that has done its stage work waits for earlier writes of its scope. */
  maxTurnWaitMs?: number;
  /** Awaited before each stage's work: lets more urgent work elsewhere in the process have the CPU first. */
  beforeStage?: () => Promise<void> | undefined;
}

/** The timing of the wait for the write's turn (not a stage: not counted in the stage metrics). */
export const TURN_TIMING = 'turn';

/**
 * Runs the stages of the write flow (pipeline/write/flow.ts) in their order. The stages before the
 * embedded ordering point do not depend on other writes, so they run at once, side by side; from it on,
 * the stages wait for the write's turn in its user scope (arrival order), then run against the committed state.
 */
export async function runPipeline(
  deps: PipelineDeps,
  ref: WriteRef,
  owner: string,
  options: PipelineRunOptions = {},
  timings: StageTimings = {},
): Promise<CommitOutput> {
  const timed = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
    await options.beforeStage?.();
    const started = performance.now();
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof EarlierWritePending)) throw new StageFailed(stage, error);
      throw error;
    } finally {
      timings[stage] = Math.round((performance.now() - started) * 100) / 100;
    }
  };
  const outputs = {} as StageOutputs;
  const run = async (stage: Stage) => {
    const output = await timed(stage, () => runStage(stage, deps, ref, outputs, { owner }));
    (outputs as Record<Stage, unknown>)[stage] = output;
  };
  const turns = new ThreadTurns(deps.store, options.maxTurnWaitMs ?? 10_000);
  const { before, from } = splitAt(ORDERING_POINT.embedded);
  await Promise.all(before.map(run));
  const { scopeKey } = await timed(TURN_TIMING, () => turns.take(ref));
  for (const stage of from) await run(stage);
  turns.ended(scopeKey);
  options.logger?.debug({ memoryId: ref.memoryId, version: ref.version, timings }, 'pipeline finished');
  return outputs[FINAL_STAGE];
}

/** Milliseconds per stage of one run; the runner reports them as metrics on its own thread. */
export type StageTimings = Record<string, number>;

/** A stage threw; `stage` names it so the failure is counted against it. */
export class StageFailed extends Error {
  constructor(
    readonly stage: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'StageFailed';
  }
}

/** What one pipeline run tells the runner (plain data: it crosses from a pipeline thread). */
export type PipelineResult =
  | { kind: 'committed'; output: CommitOutput; timings: StageTimings }
  | { kind: 'wait'; timings: StageTimings }
  | { kind: 'no-space'; timings: StageTimings }
  | { kind: 'failed'; stage: string; message: string; timings: StageTimings };

/**
 * Runs the pipeline, mapping "an earlier write is still processing" and "the disk is full" (nothing of the write
 * is committed: SQLite rolled the transaction back) to results rather than failures of the write.
 */
export async function executeWrite(deps: PipelineDeps, ref: WriteRef, owner: string, options: PipelineRunOptions = {}): Promise<PipelineResult> {
  const timings: StageTimings = {};
  try {
    const output = await runPipeline(deps, ref, owner, options, timings);
    return { kind: 'committed', output, timings };
  } catch (error) {
    if (error instanceof EarlierWritePending) return { kind: 'wait', timings };
    if (isStorageFull(error)) return { kind: 'no-space', timings };
    if (error instanceof StageFailed) return { kind: 'failed', stage: error.stage, message: error.message, timings };
    throw error;
  }
}
