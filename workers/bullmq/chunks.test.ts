import { describe, expect, it } from 'vitest';
import { chunkFlow, chunkOf, chunkOfJobId, chunkWrites, writesOf } from './chunks.js';
import { jobIdOf, STAGES } from './flows.js';

const write = (n: number) => ({ workspaceId: 'ws', memoryId: `mem_${n}`, version: 1, batchId: 'bat_1', itemIndex: n });

describe('chunks of a batch', () => {
  it('hold at most `size` writes of one user scope each, in arrival order, growing from 5 and first chunks first', () => {
    const jobs = Array.from({ length: 40 }, (_, n) => write(n));
    const scope = (job: { itemIndex?: number }) => (job.itemIndex! < 32 ? 'alice' : 'bob');
    const sizes = (size: number) => chunkWrites(jobs, scope, size).map((c) => `${scope(c[0])} ${c[0].itemIndex}+${c.length}`);
    expect(sizes(8)).toEqual(['alice 0+5', 'bob 32+5', 'alice 5+8', 'bob 37+3', 'alice 13+8', 'alice 21+8', 'alice 29+3']);
    expect(sizes(50)).toEqual(['alice 0+5', 'bob 32+5', 'alice 5+10', 'bob 37+3', 'alice 15+17']);
    expect(sizes(2)).toHaveLength(20);
    expect(chunkWrites(jobs, scope, 50).flat()).toEqual(expect.arrayContaining(jobs));
  });

  it('become flows whose every stage job carries the chunk under ids apart from single writes', () => {
    const chunk = chunkOf([write(7), write(8)]);
    const flow = chunkFlow(chunk, { attempts: 3, backoffMs: 100 });
    const ids: string[] = [];
    const visit = (node: typeof flow) => {
      ids.push(node.opts!.jobId!);
      expect(writesOf(node.data)).toEqual([write(7), write(8)]);
      node.children?.forEach(visit);
    };
    visit(flow);
    expect(ids.sort()).toEqual(STAGES.map((stage) => `chunk-mem_7-v1-${stage}`).sort());
    expect(ids.map(chunkOfJobId)).toEqual(ids.map(() => 'chunk-mem_7-v1'));
    expect(chunkOfJobId(jobIdOf(write(7), 'contradiction-1'))).toBeUndefined();
  });
});
