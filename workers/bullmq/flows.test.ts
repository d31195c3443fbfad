import type { FlowJob } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { writeFlow } from './flows.js';

describe('a write as a BullMQ flow', () => {
  it('is the tree earlier versions queued: same job names, queues, ids and options', () => {
    const job = { workspaceId: 'ws', memoryId: 'mem_1', version: 2 };
    const flow = writeFlow(job, { attempts: 3, backoffMs: 200 });
    const shape = (node: FlowJob): unknown => ({
      name: node.name,
      queueName: node.queueName,
      jobId: node.opts?.jobId,
      priority: node.opts?.priority,
      failParentOnFailure: node.opts?.failParentOnFailure,
      children: node.children?.map(shape),
    });
    const leaf = (stage: string) => ({ name: stage, queueName: stage, jobId: `mem_1-v2-${stage}`, priority: undefined, failParentOnFailure: true, children: undefined });
    const parent = (stage: string, children: unknown[], failParent: true | 'final' = true) => ({
      name: stage,
      queueName: stage,
      jobId: `mem_1-v2-${stage}`,
      priority: 1,
      failParentOnFailure: failParent === 'final' ? undefined : true,
      children,
    });
    expect(shape(flow)).toEqual(
      parent('commit', [leaf('embed'), leaf('entities'), parent('contradiction-2', [parent('contradiction-1', [leaf('facts')])])], 'final'),
    );
    expect(flow.children?.every((child) => child.data === job)).toBe(true);
  });
});
