import { describe, expect, it } from 'vitest';
import { vectorFromWire, vectorToWire } from './vector-wire.js';

describe('vector wire form', () => {
  it('round-trips a float32 vector exactly, also from a view at an odd offset', () => {
    const values = [0.019425966, -0.10947345, 1e-30, -0, 3.4e38, 0.1];
    const backing = new Float32Array(values.length + 3);
    backing.set(values, 3);
    const view = backing.subarray(3);
    const wire = vectorToWire(view);
    expect(typeof wire).toBe('string');
    expect(Array.from(vectorFromWire(wire))).toEqual(Array.from(view));
    // The base64 of 6 float32s: 24 bytes, 32 characters (JSON numbers would take about 110).
    expect(wire).toHaveLength(32);
  });

  it('reads the number array of jobs queued before the encoding', () => {
    expect(Array.from(vectorFromWire([0.5, -0.25]))).toEqual([0.5, -0.25]);
  });
});
