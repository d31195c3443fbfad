/**
 * LoCoMo evidence recall of search and context against a BM25 baseline, over HTTP on a fresh
 * embedded server; prints one JSON object:
 *   npx tsx test/eval/locomo/run.ts [--conversations N] [--data-dir DIR]
 * LOCOMO_PATH overrides the data file (default ../shared/data/locomo/locomo-dev.json beside the
 * repository); EMBEDDER and the other variables configure the server as usual.
 */
import { startTestServer } from '../../support/server.js';
import { loadLocomo, locomoPath } from './dataset.js';
import { evaluateLocomo } from './evaluate.js';

const arg = process.argv.indexOf('--conversations');
const limit = arg > 0 ? Number(process.argv[arg + 1]) : Infinity;
const conversations = loadLocomo(locomoPath()).slice(0, limit);
const env = Object.fromEntries(['EMBEDDER', 'ONNX_MODEL_DIR', 'RERANKER', 'EXTRACTOR', 'JUDGE'].flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));
// --data-dir DIR keeps the ingested store between runs (tuning the read path without re-ingesting).
const dirArg = process.argv.indexOf('--data-dir');
const server = await startTestServer(env, dirArg > 0 ? { dataDir: process.argv[dirArg + 1] } : {});
try {
  console.log(JSON.stringify(await evaluateLocomo(server.api(), conversations), null, 2));
} finally {
  await server.close();
}
