import { describe, expect, it } from 'vitest';
import { Int8Codes } from './int8-codes.js';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * 2 - 1;
}

describe('Int8Codes', () => {
  it('shortlists a superset of the exact top k, ties and near-duplicates included, and far fewer rows than it was given', () => {
    const next = random(7);
    const dimensions = 96;
    const codes = new Int8Codes(dimensions);
    const vectors: Float32Array[] = [];
    const base = Array.from({ length: 12 }, () => Float32Array.from({ length: dimensions }, next));
    for (let i = 0; i < 3_000; i++) {
      // Rows near one of a few topics; every fifth an exact copy of its topic (ties).
      const v = Float32Array.from(base[i % base.length], (x) => (i % 5 === 0 ? x : x + 0.3 * next()));
      vectors.push(v);
      codes.add(v);
    }
    const slots = vectors.map((_, i) => i);
    let shortlisted = 0;
    for (let trial = 0; trial < 30; trial++) {
      const q = Float32Array.from({ length: dimensions }, next);
      const k = 1 + (trial % 20);
      const scores = vectors.map((v) => v.reduce((sum, x, d) => sum + x * q[d], 0));
      const kth = [...scores].sort((a, b) => b - a)[k - 1];
      const short = new Set(codes.shortlist(q, slots, k));
      scores.forEach((score, slot) => {
        if (score >= kth) expect(short.has(slot)).toBe(true);
      });
      shortlisted += short.size;
    }
    expect(shortlisted / 30).toBeLessThan(600);
  });

  it('always keeps rows with non-finite components, and reuses removed slots', () => {
    const codes = new Int8Codes(3);
    const a = codes.add(Float32Array.of(1, 0, 0));
    const b = codes.add(Float32Array.of(0, 1, 0));
    const broken = codes.add(Float32Array.of(NaN, 0, 0));
    expect(codes.shortlist(Float32Array.of(1, 0, 0), [a, b, broken], 1).sort()).toEqual([a, broken].sort());
    codes.remove(b);
    expect(codes.add(Float32Array.of(0, 0, 1))).toBe(b);
  });
});
