import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { VectorPartition } from './partition.js';
import { prepareDotKernel } from './simd-kernel.js';
import { QuantisedRows } from './quantised.js';
import { compareHits, type VectorHit } from './types.js';

const makeKernel = await prepareDotKernel();

/** The reference: every row scored by the float kernel (a filter, here one every row matches, takes that path). */
function floatScan(p: VectorPartition, query: Float32Array, k: number): VectorHit[] {
  return p.search(query, { workspaceId: 'ws', agentId: null }, k);
}

const meta = (id: string) => ({ id, agentId: null, userId: null, runId: null, terms: [] });

/** Vectors drawn from a few values so that equal scores (ties) are common. */
const component = fc.oneof(
  fc.constantFrom(0, 1, -1, 0.5, -0.25),
  fc.float({ min: -4, max: 4, noNaN: true, noDefaultInfinity: true }),
);

describe('quantised scan', () => {
  it('returns exactly the hits and scores of a float scan (random sets, ties, k above the count)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((dims) =>
          fc.record({
            dims: fc.constant(dims),
            rows: fc.array(fc.array(component, { minLength: dims, maxLength: dims }), { minLength: 1, maxLength: 120 }),
            query: fc.array(component, { minLength: dims, maxLength: dims }),
            duplicate: fc.nat(),
            deletions: fc.array(fc.nat(), { maxLength: 10 }),
            k: fc.integer({ min: 1, max: 150 }),
          }),
        ),
        ({ dims, rows, query, duplicate, deletions, k }) => {
          const p = new VectorPartition(makeKernel, dims);
          rows.forEach((r, i) => p.put(meta(`m${String(i).padStart(3, '0')}`), Float32Array.from(r)));
          // An exact copy of one row: the same score under two ids.
          p.put(meta('copy'), Float32Array.from(rows[duplicate % rows.length]));
          for (const d of deletions) p.delete(`m${String(d % rows.length).padStart(3, '0')}`);
          const q = Float32Array.from(query);
          const quantised = p.search(q, { workspaceId: 'ws' }, k);
          const reference = floatScan(p, q, k);
          expect(quantised).toEqual(reference);
          expect(quantised.length).toBe(Math.min(k, p.size));
          expect([...quantised].sort(compareHits)).toEqual(quantised);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('is exact on near-duplicates, where the ranking rests on differences below the int8 step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 24 }).chain((dims) =>
          fc.record({
            base: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims }),
            nudges: fc.array(fc.array(fc.integer({ min: -40, max: 40 }), { minLength: dims, maxLength: dims }), { minLength: 2, maxLength: 80 }),
            query: fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { minLength: dims, maxLength: dims }),
            k: fc.integer({ min: 1, max: 10 }),
          }),
        ),
        ({ base, nudges, query, k }) => {
          const p = new VectorPartition(makeKernel, base.length);
          nudges.forEach((nudge, i) => p.put(meta(`m${i}`), Float32Array.from(base, (x, j) => x + nudge[j] * 1e-4)));
          const q = Float32Array.from(query);
          expect(p.search(q, { workspaceId: 'ws' }, k)).toEqual(floatScan(p, q, k));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is exact on normalised 641-dimensional clusters of near-duplicates', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: 60 }), (seed, k) => {
        let state = seed;
        const random = () => ((state = (state * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32) * 2 - 1;
        const unit = (v: Float32Array) => {
          const n = Math.hypot(...v);
          return v.map((x) => x / n);
        };
        const dims = 641;
        const centres = Array.from({ length: 5 }, () => unit(Float32Array.from({ length: dims }, random)));
        const p = new VectorPartition(makeKernel, dims);
        for (let i = 0; i < 600; i++) {
          const c = centres[i % centres.length];
          p.put(meta(`m${i}`), unit(c.map((x) => x + 0.01 * random())));
        }
        const q = unit(centres[0].map((x) => x + 0.2 * random()));
        const shortlist = vi.spyOn(QuantisedRows.prototype, 'shortlist');
        const hits = p.search(q, { workspaceId: 'ws' }, k);
        // Only the query's own cluster (120 rows) can reach the top.
        expect(shortlist.mock.results[0].value).toBeLessThanOrEqual(120);
        shortlist.mockRestore();
        expect(hits).toEqual(floatScan(p, q, k));
      }),
      { numRuns: 30 },
    );
  });

  it.each([
    ['sparse rows, kept in strips of dimension pairs', 0.85, 'writeStripQuery'],
    ['dense rows, kept whole', 0, 'writeRowQuery'],
  ])('is exact across blocks of rows (%s), while the partition grows and after deletions move rows', (_, zeroShare, layoutWriter) => {
    let state = 7;
    const random = () => ((state = (state * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32) * 2 - 1;
    // Sparse rows, as the default embedder makes them: a few dense dimensions, the rest mostly zero.
    const row = (dims: number) => Float32Array.from({ length: dims }, (_, d) => (d < 4 || random() > 2 * zeroShare - 1 ? random() : 0));
    const dims = 37;
    const p = new VectorPartition(makeKernel, dims);
    const queries = Array.from({ length: 6 }, () => row(dims));
    const check = (k: number) => {
      for (const q of queries) expect(p.search(q, { workspaceId: 'ws' }, k)).toEqual(floatScan(p, q, k));
    };
    for (let i = 0; i < 9_000; i++) {
      p.put(meta(`m${i}`), row(dims));
      // Checked while the one block is laid out again at each growth, and once there are several.
      if ([300, 600, 2_100, 4_200, 8_999].includes(i)) check(20);
    }
    // Deleting from the first block moves rows of the last block into it.
    for (let i = 0; i < 9_000; i += 7) p.delete(`m${i}`);
    expect(p.size).toBe(9_000 - Math.ceil(9_000 / 7));
    const writer = vi.spyOn(QuantisedRows.prototype as unknown as Record<string, () => number>, layoutWriter);
    for (const k of [1, 15, 60]) check(k);
    expect(writer).toHaveBeenCalled();
    writer.mockRestore();
  });

  it('falls back to the float scan when a row is not finite', () => {
    const p = new VectorPartition(makeKernel, 3);
    p.put(meta('a'), new Float32Array([1, 0, 0]));
    p.put(meta('b'), new Float32Array([NaN, 0, 0]));
    p.put(meta('c'), new Float32Array([0.5, 0.5, 0]));
    const q = new Float32Array([1, 1, 0]);
    expect(p.search(q, { workspaceId: 'ws' }, 1)).toEqual(floatScan(p, q, 1));
    p.delete('b');
    const shortlist = vi.spyOn(QuantisedRows.prototype, 'shortlist');
    expect(p.search(q, { workspaceId: 'ws' }, 1)).toEqual([{ id: 'a', score: 1 }]);
    expect(shortlist).toHaveReturnedWith(2);
    shortlist.mockRestore();
  });
});
