import type { FlowJob, JobsOptions } from 'bullmq';
import { FINAL_STAGE, WRITE_FLOW, type Stage } from '../../pipeline/write/flow.js';
import type { WriteJob } from '../../core/write-queue.js';

/** One queue per pipeline stage (named after it), so each scales and shows on the dashboard on its own. */
export { STAGES, type Stage } from '../../pipeline/write/flow.js';

/** BullMQ job ids may not contain ':'; versions keep an update's flow apart from the add's. */
export const jobIdOf = (job: Pick<WriteJob, 'memoryId' | 'version'>, stage: Stage) => `${job.memoryId}-v${job.version}-${stage}`;

export interface FlowOptions {
  attempts: number;
  backoffMs: number;
}

/**
 * The write flow (pipeline/write/flow.ts) as a BullMQ flow: each stage is a job whose children are the
 * stages it needs, under the final stage (commit). Every stage but the final one is needed by exactly one
 * stage, so the tree holds each once: commit over embed, entities and contradiction-2, over contradiction-1,
 * over facts. Payloads carry ids only; content is read from the store by each stage.
 */
export function writeFlow(job: WriteJob, options: FlowOptions): FlowJob {
  return flowTree(job, (stage) => jobIdOf(job, stage), options);
}

/** The flow's tree for a stage job payload (one write, or a chunk of them: chunks.ts), with its job ids. */
export function flowTree(data: object, jobIdOfStage: (stage: Stage) => string, options: FlowOptions): FlowJob {
  const opts = (stage: Stage, hasChildren: boolean): JobsOptions => ({
    jobId: jobIdOfStage(stage),
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
    ...(stage === FINAL_STAGE ? {} : { failParentOnFailure: true }),
  });
  const node = (stage: Stage): FlowJob => {
    const { needs } = WRITE_FLOW[stage];
    const children = needs.length > 0 ? needs.map(node) : undefined;
    return { name: stage, queueName: stage, data, opts: opts(stage, children !== undefined), children };
  };
  return node(FINAL_STAGE);
}
