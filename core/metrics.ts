import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { STAGES, type Stage } from '../pipeline/write/flow.js';
import { EarlierWritePending } from '../pipeline/write/scope-order.js';

/**
 * Process-wide Prometheus metrics: Node's own (event loop, memory, GC) and the
 * write pipeline's stages, whichever runner (embedded or BullMQ) runs them.
 * Labels carry stage names only, never ids or content.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry, prefix: 'engram_' });

const stageDuration = new Histogram({
  name: 'engram_pipeline_stage_duration_seconds',
  help: 'Duration of one write pipeline stage run',
  labelNames: ['stage', 'outcome'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

const stageFailures = new Counter({
  name: 'engram_pipeline_stage_failures_total',
  help: 'Stage runs that threw (each retry attempt counts)',
  labelNames: ['stage'] as const,
  registers: [processRegistry],
});

const isStage = (name: string): name is Stage => (STAGES as readonly string[]).includes(name);

/**
 * Records stage runs timed elsewhere (the embedded runner's pipeline threads have their own
 * registries, so they hand their timings back). `failedStage` ran last and threw. Timings of
 * anything but a stage of the write flow (the wait for a write's turn) are not stage runs.
 */
export function recordStageTimings(timingsMs: Record<string, number>, failedStage?: string): void {
  for (const [stage, ms] of Object.entries(timingsMs)) {
    if (!isStage(stage)) continue;
    const failed = stage === failedStage;
    stageDuration.observe({ stage, outcome: failed ? 'error' : 'ok' }, ms / 1000);
    if (failed) stageFailures.inc({ stage });
  }
}

/** Times `work` as one run of `stage`; a throw counts as a failure and is rethrown. */
export async function timeStage<T>(stage: Stage, work: () => Promise<T>): Promise<T> {
  const end = stageDuration.startTimer({ stage });
  try {
    const result = await work();
    end({ outcome: 'ok' });
    return result;
  } catch (error) {
    // Waiting for an earlier write of the same user scope is ordering, not failure.
    if (error instanceof EarlierWritePending) {
      end({ outcome: 'deferred' });
      throw error;
    }
    end({ outcome: 'error' });
    stageFailures.inc({ stage });
    throw error;
  }
}
