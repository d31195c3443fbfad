/**
 * Embedding benchmark for EMBEDDER=onnx, with the default GloVe embedder on the same texts for a ratio.
 *   ONNX_MODEL_DIR=$(npm run --silent models:onnx) npx tsx bench/embed-onnx.ts
 * Prints one JSON object. Rates are texts per CPU second of this process (process.cpuUsage), which
 * shared machines distort less than wall time; wall rates are printed beside them.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createGloveEmbedder } from '../pipeline/embedding/glove-embedder.js';
import { createOnnxEmbedder } from '../pipeline/embedding/onnx-embedder.js';
import type { Embedder } from '../pipeline/types.js';
import { sampleTexts } from './sample-texts.js';

const modelDir = process.env.ONNX_MODEL_DIR;
if (!modelDir) throw new Error('Set ONNX_MODEL_DIR (npm run --silent models:onnx prints one)');

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Embeds `texts` in calls of `perCall` for at least `minMs`; texts per CPU second and per wall second. */
async function throughput(embedder: Embedder, texts: string[], perCall: number, minMs = 3000) {
  await embedder.embed(texts.slice(0, perCall)); // warm-up
  let done = 0;
  const wall = performance.now();
  const cpu = cpuSeconds();
  while (performance.now() - wall < minMs) {
    for (let i = 0; i < texts.length && performance.now() - wall < minMs; i += perCall) {
      const call = texts.slice(i, i + perCall);
      await embedder.embed(call);
      done += call.length;
    }
  }
  return { perCpuSecond: Math.round(done / (cpuSeconds() - cpu)), perWallSecond: Math.round(done / ((performance.now() - wall) / 1000)) };
}

const loadStarted = cpuSeconds();
const onnx = await createOnnxEmbedder({ modelDir });
const loadCpuMs = Math.round((cpuSeconds() - loadStarted) * 1000);
const glove = await createGloveEmbedder('unused', { cacheDir: join(tmpdir(), 'engram-test-cache') });

const short = sampleTexts(512, 60);
const turn = sampleTexts(256, 200);
const long = sampleTexts(64, 2000);
const result = {
  embedder: { id: onnx.id, dimensions: onnx.dimensions, threads: 1, loadCpuMs },
  onnx: {
    short60_one_per_call: await throughput(onnx, short, 1),
    short60_batch32: await throughput(onnx, short, 32),
    turn200_batch32: await throughput(onnx, turn, 32),
    long2000_batch32: await throughput(onnx, long, 32),
  },
  glove: {
    short60_batch32: await throughput(glove, short, 32),
    turn200_batch32: await throughput(glove, turn, 32),
    long2000_batch32: await throughput(glove, long, 32),
  },
  node: process.version,
};
console.log(JSON.stringify(result, null, 2));
