import { describe, expect, it } from 'vitest';
import { FINAL_STAGE, ORDERING_POINT, STAGES, WRITE_FLOW, splitAt } from './flow.js';

describe('the write flow declaration', () => {
  it('lists each stage after the stages it needs, ending with the final stage', () => {
    for (const [i, stage] of STAGES.entries()) {
      for (const need of WRITE_FLOW[stage].needs) expect(STAGES.indexOf(need), `${stage} needs ${need}`).toBeLessThan(i);
    }
    expect(STAGES.at(-1)).toBe(FINAL_STAGE);
  });

  it('has every stage but the final one read by exactly one stage (a BullMQ flow is a tree)', () => {
    for (const stage of STAGES) {
      const readers = STAGES.filter((s) => WRITE_FLOW[s].needs.includes(stage));
      expect(readers.length, stage).toBe(stage === FINAL_STAGE ? 0 : 1);
    }
  });

  it('runs nothing before an ordering point that needs a stage from it on', () => {
    for (const point of Object.values(ORDERING_POINT)) {
      const { before } = splitAt(point);
      for (const stage of before) for (const need of WRITE_FLOW[stage].needs) expect(before).toContain(need);
    }
  });

  it('keeps the stage names that queues, jobs and metrics carry', () => {
    expect(STAGES).toEqual(['embed', 'entities', 'facts', 'contradiction-1', 'contradiction-2', 'commit']);
    expect(ORDERING_POINT).toEqual({ embedded: 'contradiction-1', bullmq: 'commit' });
  });
});
