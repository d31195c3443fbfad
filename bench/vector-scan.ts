/**
 * CPU cost of one workspace-wide exact vector scan, without HTTP:
 *   npx tsx bench/vector-scan.ts [memories] [scans]      default 100000 200
 *   DENSE=384 npx tsx bench/vector-scan.ts               dense rows instead (below)
 * Loads the same memories as bench/retrieval.ts (default embedder) into one
 * partition, or with DENSE=d clustered random unit vectors of d dimensions, every
 * component non-zero, as sentence-transformer embeddings are (the partition then
 * keeps whole rows instead of strips of dimension pairs), then times `scans` searches (k = 15 as search, 60 as context) with
 * process.cpuUsage(): the quantised path (int8 shortlist + float rescoring) and the
 * full float scan (a filter every row matches), and checks they return the same.
 * That float column pays the filter's per-row check, so it is a little dearer than
 * the old unfiltered scan: the "before" figures in the README's history are this script run on the
 * previous storage/vector/partition.ts (where the unfiltered search is that scan).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createGloveEmbedder } from '../pipeline/embedding/glove-embedder.js';
import { VectorPartition } from '../storage/vector/partition.js';
import { QuantisedRows } from '../storage/vector/quantised.js';
import { prepareDotKernel } from '../storage/vector/simd-kernel.js';
import type { VectorFilter } from '../storage/vector/types.js';
import { memories as templates, queries } from '../test/eval/retrieval/dataset.js';

const n = Number(process.argv[2] ?? 100_000);
const scans = Number(process.argv[3] ?? 200);
const FILLERS = ['Lisbon', 'Kraków', 'Osaka', 'Denver', 'Nairobi', 'Tromsø', 'Quito', 'Hanoi', 'Adelaide', 'Porto'];

const dense = Number(process.env.DENSE ?? 0);
const meta = (i: number) => ({ id: `mem_${i}`, agentId: null, userId: `user${i % 100}`, runId: null, terms: [] });
let partition: VectorPartition;
let queryVectors: Float32Array[];
if (dense > 0) {
  let state = 11;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) >>> 0) / 2 ** 32) * 2 - 1;
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const centres = Array.from({ length: 50 }, () => unit(Float32Array.from({ length: dense }, random)));
  partition = new VectorPartition(await prepareDotKernel(), dense);
  for (let i = 0; i < n; i++) partition.put(meta(i), unit(centres[i % 50].map((x) => x + 0.08 * random())));
  queryVectors = Array.from({ length: 140 }, (_, i) => unit(centres[i % 50].map((x) => x + 0.1 * random())));
} else {
  const embedder = await createGloveEmbedder('unused', { cacheDir: join(tmpdir(), 'engram-test-cache') });
  partition = new VectorPartition(await prepareDotKernel(), embedder.dimensions);
  for (let offset = 0; offset < n; offset += 1_000) {
    const ids = Array.from({ length: Math.min(1_000, n - offset) }, (_, i) => offset + i);
    const vectors = await embedder.embed(ids.map((i) => `${templates[i % templates.length].content} (${FILLERS[i % FILLERS.length]}, note ${i})`));
    ids.forEach((i, j) => partition.put(meta(i), vectors[j]));
  }
  queryVectors = queries.map((q) => embedder.embedQuery(q.query));
}

const shortlisted: number[] = [];
const shortlist = QuantisedRows.prototype.shortlist;
QuantisedRows.prototype.shortlist = function (...args) {
  const result = shortlist.apply(this, args);
  if (result !== null) shortlisted.push(result);
  return result;
};

function cpuMsPerScan(filter: VectorFilter, k: number): number {
  for (let i = 0; i < 10; i++) partition.search(queryVectors[i % queryVectors.length], filter, k); // warm-up
  const started = process.cpuUsage();
  for (let i = 0; i < scans; i++) partition.search(queryVectors[i % queryVectors.length], filter, k);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000 / scans;
}

const results = [];
for (const k of [15, 60]) {
  let mismatches = 0;
  for (const q of queryVectors) {
    if (!isDeepStrictEqual(partition.search(q, { workspaceId: 'ws' }, k), partition.search(q, { workspaceId: 'ws', agentId: null }, k))) mismatches++;
  }
  shortlisted.length = 0;
  const quantised = cpuMsPerScan({ workspaceId: 'ws' }, k);
  const sorted = [...shortlisted].sort((a, b) => a - b);
  const float = cpuMsPerScan({ workspaceId: 'ws', agentId: null }, k);
  results.push({
    k,
    cpuMsPerScan: { float: +float.toFixed(2), quantised: +quantised.toFixed(2), ratio: +(float / quantised).toFixed(2) },
    shortlist: { p50: sorted[sorted.length >> 1], max: sorted[sorted.length - 1] },
    mismatches,
  });
}
console.log(JSON.stringify({ memories: n, dimensions: partition.dimensions, rows: dense > 0 ? 'dense' : 'default embedder', scans, results }));
