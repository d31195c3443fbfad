import { describe, expect, it } from 'vitest';
import { GraphPartition } from './graph-partition.js';

const DIMENSIONS = 8;
const vectorOf = (i: number) => {
  const v = Float32Array.from({ length: DIMENSIONS }, (_, d) => Math.sin(i * 0.37 + d * 1.3));
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

describe('GraphPartition', () => {
  it('a filter matching more rows than it scores exactly still returns only matching rows, the best of them first', () => {
    const vectors = new Map<string, Float32Array>();
    const graph = new GraphPartition(DIMENSIONS, (ids) => new Map(ids.map((id) => [id, vectors.get(id)!])));
    // 20,400 rows: one user with more rows than a filtered search scores exactly, the rest another user's.
    for (let i = 0; i < 20_400; i++) {
      const id = `mem_${i}`;
      vectors.set(id, vectorOf(i));
      graph.put({ id, agentId: i % 2 === 0 ? 'bot' : null, userId: i < 20_100 ? 'big' : 'small', runId: null, terms: [] }, vectorOf(i));
    }
    const q = vectorOf(20_250);
    const big = graph.search(q, { workspaceId: 'ws', userId: 'big' }, 5);
    expect(big).toHaveLength(5);
    for (const hit of big) expect(Number(hit.id.slice(4))).toBeLessThan(20_100);
    const bots = graph.search(q, { workspaceId: 'ws', agentId: 'bot' }, 5);
    expect(bots).toHaveLength(5);
    for (const hit of bots) expect(Number(hit.id.slice(4)) % 2).toBe(0);
    // The one user with few rows is scored exactly.
    const small = graph.search(q, { workspaceId: 'ws', userId: 'small' }, 1);
    expect(small[0].id).toBe('mem_20250');
  });
});
