/**
 * Development aid: LoCoMo search recall@10 of a GloVe sentence recipe straight through the embedder
 * (no server), against BM25 over the same turns. The query is weighted the way search weights it:
 * document frequencies over every turn of the conversations read (one workspace, as run.ts writes
 * them), ranked within the conversation (one user each). RECIPE='{"lexical":{...}}' merges into the
 * default recipe. With `--dense DIR` (an ONNX sentence-model folder) it also prints the weights of a dense block
 * joined to the GloVe vector (cosine = w · dense + (1 − w) · GloVe), as EMBEDDER=model joins them:
 *   npx tsx test/eval/locomo/embedder-search.ts [--conversations N] [--dense DIR]
 */
import { inverseDocumentFrequency } from '../../../core/queries/search.js';
import { cosine } from '../../../pipeline/embedding/vector-math.js';
import { createGloveEmbedder } from '../../../pipeline/embedding/glove-embedder.js';
import { createOnnxEmbedder } from '../../../pipeline/embedding/onnx-embedder.js';
import { DEFAULT_RECIPE } from '../../../pipeline/embedding/sentence-encoder.js';
import { keywordTerms, stemmedText, termStem } from '../../../storage/vector/keywords.js';
import { SHARED_CACHE_DIR } from '../../support/server.js';
import { Bm25Index } from './bm25.js';
import { loadLocomo } from './dataset.js';

const arg = process.argv.indexOf('--conversations');
const conversations = loadLocomo().slice(0, arg > 0 ? Number(process.argv[arg + 1]) : Infinity);
const recipe = { ...DEFAULT_RECIPE, ...JSON.parse(process.env.RECIPE ?? '{}') };
const embedder = await createGloveEmbedder(SHARED_CACHE_DIR, { cacheDir: SHARED_CACHE_DIR }, recipe);
const denseArg = process.argv.indexOf('--dense');
const dense = denseArg > 0 ? await createOnnxEmbedder({ modelDir: process.argv[denseArg + 1], threads: 2 }) : null;
const WEIGHTS = dense ? [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1] : [0];

// Document frequencies of the keyword index (Porter stems of every word), over the whole workspace.
const documentFrequency = new Map<string, number>();
let documents = 0;
for (const c of conversations) {
  for (const t of c.turns) {
    documents++;
    for (const stem of new Set(stemmedText(t.content).split(' '))) documentFrequency.set(stem, (documentFrequency.get(stem) ?? 0) + 1);
  }
}
const queryVector = (question: string) => {
  const frequencies = new Map(keywordTerms(question).map((w) => [termStem(w), documentFrequency.get(termStem(w)) ?? 0]));
  const termWeight = inverseDocumentFrequency({ documents, frequencies });
  return embedder.embedQuery(question, termWeight);
};

const started = performance.now();
const found = WEIGHTS.map(() => ({ recall: 0, first: 0 }));
let bm = 0;
let n = 0;
for (const c of conversations) {
  const vectors = await embedder.embed(c.turns.map((t) => t.content));
  const denseVectors = dense ? await dense.embed(c.turns.map((t) => t.content)) : [];
  const denseQueries = dense ? await dense.embed(c.questions.map((q) => q.question)) : [];
  const bm25 = new Bm25Index();
  for (const t of c.turns) bm25.add(t.diaId, t.content);
  for (const [k, q] of c.questions.entries()) {
    const qv = queryVector(q.question);
    const lexical = vectors.map((v) => cosine(qv, v));
    const semantic = dense ? denseVectors.map((v) => cosine(denseQueries[k], v)) : [];
    for (const [w, weight] of WEIGHTS.entries()) {
      const top = c.turns
        .map((t, i) => ({ id: t.diaId, s: weight ? weight * semantic[i] + (1 - weight) * lexical[i] : lexical[i] }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 10)
        .map((x) => x.id);
      found[w].recall += q.evidence.filter((e) => top.includes(e)).length / q.evidence.length;
      found[w].first += q.evidence.includes(top[0]) ? 1 : 0;
    }
    const bmTop = new Set(bm25.rank(q.question).slice(0, 10));
    bm += q.evidence.filter((e) => bmTop.has(e)).length / q.evidence.length;
    n++;
  }
}
const seconds = (performance.now() - started) / 1000;
const byWeight = WEIGHTS.map((weight, w) => ({ dense_weight: weight, search_recall_at_10: +(found[w].recall / n).toFixed(3), search_any_at_1: +(found[w].first / n).toFixed(3) }));
console.log(JSON.stringify({ recipe, id: embedder.id, dense: dense?.id ?? null, dimensions: embedder.dimensions, questions: n, ...(dense ? { by_weight: byWeight } : byWeight[0]), bm25: +(bm / n).toFixed(3), seconds: +seconds.toFixed(1) }, null, dense ? 1 : 0));
