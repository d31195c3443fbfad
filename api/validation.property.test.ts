import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../core/errors.js';
import { jsonShapeProblem } from './json-shape.js';
import { MAX_PATH_ID_CHARS, METADATA_LIMITS, metadataSchema, pathParam, validate } from './validation.js';

/** Property-based checks of the input guards: they agree with their definitions on every input fast-check finds. */

/** Reference definitions, recursive on purpose (only ever given shallow values here). */
const depthOf = (v: unknown): number =>
  v === null || typeof v !== 'object' ? 0 : 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf));

/** A value nested `n` levels deep, built without recursion. */
function nested(n: number, leaf: unknown, asArray: boolean): unknown {
  let v = leaf;
  for (let i = 0; i < n; i++) v = asArray ? [v] : { k: v };
  return v;
}

describe('jsonShapeProblem', () => {
  it('is null exactly when the value is within the depth and serialised-size limits', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 0, max: 8 }), fc.integer({ min: 0, max: 400 }), (value, maxDepth, maxChars) => {
        const depth = depthOf(value);
        const chars = JSON.stringify(value).length;
        const problem = jsonShapeProblem(value, { maxDepth, maxChars });
        expect(problem === null).toBe(depth <= maxDepth && chars <= maxChars);
        if (problem?.kind === 'depth') expect(depth).toBeGreaterThan(maxDepth);
        if (problem?.kind === 'size') expect(chars).toBeGreaterThan(maxChars);
      }),
      { numRuns: 500 },
    );
  });

  it('measures values nested far deeper than the call stack allows', () => {
    for (const asArray of [true, false]) {
      const deep = nested(200_000, 'x', asArray);
      expect(() => JSON.stringify(deep)).toThrow(RangeError);
      expect(jsonShapeProblem(deep, { maxDepth: 64, maxChars: Number.POSITIVE_INFINITY })).toEqual({ kind: 'depth', limit: 64, field: asArray ? 0 : 'k' });
    }
  });
});

describe('metadata validation', () => {
  it('accepts objects within the limits and refuses the rest with a 422 naming metadata, at any depth', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), fc.boolean(), fc.jsonValue({ maxDepth: 2 }), (depth, asArray, leaf) => {
        const metadata = { root: nested(depth, leaf, asArray) };
        const fits = depth + 1 + depthOf(leaf) <= METADATA_LIMITS.maxDepth && JSON.stringify(metadata).length <= METADATA_LIMITS.maxChars;
        try {
          validate(metadataSchema, metadata, 'metadata');
          expect(fits).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).status).toBe(422);
          expect((error as ApiError).message).toMatch(/^metadata: must (be nested at most 10 levels deep|serialise to at most 64000 characters)$/);
          expect(fits).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('path ids', () => {
  const controlChar = /[\u0000-\u001f\u007f]/;
  it('accept every id of 1 to 256 characters without control characters, unchanged; refuse the rest naming the parameter', () => {
    const ids = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ minLength: 250, maxLength: 270 }),
      fc.stringMatching(/^(mem|fct|bat|batch)_[A-Za-z0-9%/._-]{0,40}$/),
    );
    fc.assert(
      fc.property(ids, fc.constantFrom('id', 'end_user'), (raw, name) => {
        const valid = raw.length >= 1 && raw.length <= MAX_PATH_ID_CHARS && !controlChar.test(raw) && raw.trim().length > 0;
        if (valid) expect(pathParam(name, raw)).toBe(raw);
        else {
          expect(() => pathParam(name, raw)).toThrow(ApiError);
          expect(() => pathParam(name, raw)).toThrow(new RegExp(`^${name}: `));
        }
      }),
      { numRuns: 500 },
    );
  });
});
