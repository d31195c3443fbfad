import type { FlowJob, JobsOptions } from 'bullmq';
import type { WriteJob } from '../queue.js';

/** One queue per pipeline stage, so each scales and shows on the dashboard on its own. */
export const STAGES = ['embed', 'entities', 'facts', 'contradiction-1', 'contradiction-2', 'commit'] as const;
export type Stage = (typeof STAGES)[number];

/** BullMQ job ids may not contain ':'; versions keep an update's flow apart from the add's. */
export const jobIdOf = (job: Pick<WriteJob, 'memoryId' | 'version'>, stage: Stage) => `${job.memoryId}-v${job.version}-${stage}`;

export interface FlowOptions {
  attempts: number;
  backoffMs: number;
}

/**
 * The write flow: embed, entities and facts run in parallel; contradiction
 * stage 1 waits for facts, stage 2 for stage 1, and commit for everything.
 * Payloads carry ids only; content is read from the store by each stage.
 */
export function writeFlow(job: WriteJob, options: FlowOptions): FlowJob {
  const opts = (stage: Stage, hasChildren: boolean): JobsOptions => ({
    jobId: jobIdOf(job, stage),
    // BullMQ queues a parent whose children finished at the front of its wait list, which makes a
    // queue of parents (contradiction 1 and 2, commit) last in, first out: under a backlog the oldest
    // writes starve and commits come out of arrival order, only to wait for their turn. Parents
    // with a priority go to the prioritized set instead, first in, first out within a priority.
    ...(hasChildren ? { priority: 1 } : {}),
    attempts: options.attempts,
    backoff: { type: 'exponential', delay: options.backoffMs },
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
    // A stage that fails for good fails its parents too, so the write ends in `error` instead of hanging.
    ...(stage === 'commit' ? {} : { failParentOnFailure: true }),
  });
  const node = (stage: Stage, children?: FlowJob[]): FlowJob => ({ name: stage, queueName: stage, data: job, opts: opts(stage, children !== undefined), children });
  return node('commit', [node('embed'), node('entities'), node('contradiction-2', [node('contradiction-1', [node('facts')])])]);
}
