import { describe, expect, it } from 'vitest';
import { addTokenNgrams } from './char-ngrams.js';
import { withRetry } from './retry.js';
import { isStopWord } from './stop-words.js';
import { normalizeText, tokenize, vocabularyFallbacks } from './tokenize.js';
import { cosine, normalizeInPlace, toUnitScore } from './vector-math.js';
import { sifWeight } from './word-weights.js';

describe('tokenize', () => {
  it('lower-cases, removes Latin accents and unifies apostrophes', () => {
    expect(tokenize(normalizeText('Café MÜLLER’s déjà-vu'))).toEqual(['cafe', "muller's", 'deja-vu']);
  });

  it('keeps numbers, versions and other scripts whole', () => {
    expect(tokenize(normalizeText('Flight LH-2044 at 7:30, 3.5 km, ２０２４ — 東京で'))).toEqual(['flight', 'lh-2044', 'at', '7', '30', '3.5', 'km', '2024', '東京で']);
  });

  it('offers vocabulary fallbacks for possessives, negations and compounds', () => {
    expect(vocabularyFallbacks("max's")).toEqual(['max']);
    expect(vocabularyFallbacks("doesn't")).toEqual(['does', 'not']);
    expect(vocabularyFallbacks('dog-friendly')).toEqual(['dog', 'friendly']);
    expect(vocabularyFallbacks('beagle')).toEqual([]);
  });
});

describe('stop words', () => {
  it('drops function words and query scaffolding but keeps months and names', () => {
    for (const word of ['the', 'what', 'does', 'user', 'kind']) expect(isStopWord(word)).toBe(true);
    for (const word of ['may', 'dog', 'doctor', 'march', 'don']) expect(isStopWord(word)).toBe(false);
  });
});

describe('sifWeight', () => {
  it('rises with rank from near 0 to near 1', () => {
    const weights = [0, 10, 100, 1000, 10_000, 300_000].map((rank) => sifWeight(rank, 341_479, 1e-3));
    for (let i = 1; i < weights.length; i++) expect(weights[i]).toBeGreaterThan(weights[i - 1]);
    expect(weights[0]).toBeLessThan(0.05);
    expect(weights.at(-1)).toBeGreaterThan(0.99);
  });
});

describe('addTokenNgrams', () => {
  const spec = { minN: 3, maxN: 4, buckets: 512 };
  const features = (token: string, weight = 1) => {
    const target = new Float64Array(spec.buckets + 2);
    addTokenNgrams(token, weight, target, 2, spec);
    return target;
  };

  it('writes only inside its block, deterministically, with norm close to the weight', () => {
    const a = features('kubernetes', 0.5);
    expect(a[0]).toBe(0);
    expect(a[1]).toBe(0);
    expect(Array.from(features('kubernetes', 0.5))).toEqual(Array.from(a));
    expect(Math.sqrt(cosine(a, a))).toBeGreaterThan(0.4);
    expect(Math.sqrt(cosine(a, a))).toBeLessThan(0.6);
  });

  it('makes spelling variants similar and different words dissimilar', () => {
    const unit = (t: string) => {
      const v = features(t);
      normalizeInPlace(v);
      return v;
    };
    expect(cosine(unit('kubernetes'), unit('kubernetis'))).toBeGreaterThan(0.5);
    expect(Math.abs(cosine(unit('kubernetes'), unit('marmalade')))).toBeLessThan(0.25);
  });
});

describe('vector math', () => {
  it('computes cosine of unit vectors and rejects mismatched lengths', () => {
    expect(cosine([0.6, 0.8], [0.6, 0.8])).toBeCloseTo(1);
    expect(cosine([1, 0], [0, 1])).toBe(0);
    expect(() => cosine([1], [1, 0])).toThrow(/dimension mismatch/);
  });

  it('maps cosines to [0, 1] scores, clamping negatives and garbage to 0', () => {
    expect(toUnitScore(0.42)).toBe(0.42);
    expect(toUnitScore(-0.3)).toBe(0);
    expect(toUnitScore(1.0000001)).toBe(1);
    expect(toUnitScore(Number.NaN)).toBe(0);
  });

  it('normalises in place and refuses zero vectors', () => {
    const v = new Float32Array([3, 4]);
    expect(normalizeInPlace(v)).toBe(true);
    expect(Array.from(v)).toEqual([0.6000000238418579, 0.800000011920929]);
    const zero = new Float32Array(3);
    expect(normalizeInPlace(zero)).toBe(false);
    expect(Array.from(zero)).toEqual([0, 0, 0]);
  });
});

describe('withRetry', () => {
  const policy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 };

  it('retries retryable failures until success', async () => {
    let calls = 0;
    const result = await withRetry(async () => {
      if (++calls < 3) throw new Error('flaky');
      return 'ok';
    }, policy, () => ({ retry: true }));
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('stops at once on a non-retryable failure and after maxRetries otherwise', async () => {
    let calls = 0;
    await expect(withRetry(async () => { calls++; throw new Error('bad request'); }, policy, () => ({ retry: false }))).rejects.toThrow('bad request');
    expect(calls).toBe(1);
    calls = 0;
    await expect(withRetry(async () => { calls++; throw new Error('down'); }, policy, () => ({ retry: true }))).rejects.toThrow('down');
    expect(calls).toBe(4);
  });
});
