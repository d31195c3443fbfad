/**
 * Embedding benchmark for the default (GloVe + n-gram) embedder.
 *   npx tsx bench/embed.ts [--skip-cold]
 * Prints exactly one JSON object on stdout. --skip-cold reuses the cache in a shared
 * temp directory instead of timing a fresh build (which takes several seconds).
 */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureGloveCache, parseGloveCache } from '../pipeline/embedding/glove-cache.js';
import { GloveEmbedder } from '../pipeline/embedding/glove-embedder.js';
import { sampleTexts } from './sample-texts.js';

const SHARED_CACHE_DIR = join(tmpdir(), 'engram-test-cache');

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await work();
  return { result, ms: performance.now() - started };
}

/** Embeds `texts` repeatedly for at least `minMs`; returns texts per second. */
async function throughput(embedder: GloveEmbedder, texts: string[], minMs = 1500): Promise<number> {
  await embedder.embed(texts.slice(0, 50)); // warm-up (JIT)
  let done = 0;
  const started = performance.now();
  while (performance.now() - started < minMs) {
    await embedder.embed(texts);
    done += texts.length;
  }
  return done / ((performance.now() - started) / 1000);
}

const skipCold = process.argv.includes('--skip-cold');
let cold: { buildMs: number } | null = null;
let cachePath: string;
let scratch: string | undefined;

if (skipCold) {
  cachePath = await ensureGloveCache('unused', { cacheDir: SHARED_CACHE_DIR });
} else {
  scratch = await mkdtemp(join(tmpdir(), 'engram-bench-'));
  const build = await timed(() => ensureGloveCache(scratch!));
  cachePath = build.result;
  cold = { buildMs: Math.round(build.ms) };
}

try {
  const cacheBytes = (await stat(cachePath)).size;
  const check = await timed(() => ensureGloveCache('unused', { cacheDir: join(cachePath, '..') }));
  // Unmemoised load: read + parse the file, then derive the encoder (what a fresh process does).
  const load = await timed(async () => parseGloveCache(await readFile(cachePath)).table);
  const encoder = await timed(async () => new GloveEmbedder(load.result));
  const embedder = encoder.result;

  const short = sampleTexts(2000, 60);
  const long = sampleTexts(200, 2000);
  const result = {
    embedder: { id: embedder.id, dimensions: embedder.dimensions },
    cache: {
      bytes: cacheBytes,
      words: load.result.wordCount,
      coldBuildMs: cold?.buildMs ?? null,
      validateExistingMs: +check.ms.toFixed(1),
      warmLoadMs: +(load.ms + encoder.ms).toFixed(1),
    },
    throughput: {
      shortTextChars: 60,
      shortTextsPerSecond: Math.round(await throughput(embedder, short)),
      longTextChars: 2000,
      longTextsPerSecond: Math.round(await throughput(embedder, long)),
    },
    node: process.version,
  };
  console.log(JSON.stringify(result));
} finally {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
