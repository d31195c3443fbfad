/**
 * Development aid: LoCoMo search recall@10 of a GloVe sentence recipe straight through the embedder
 * (no server), against BM25 over the same turns. The query is weighted the way search weights it:
 * document frequencies over every turn of the conversations read (one workspace, as run.ts writes
 * them), ranked within the conversation (one user each). RECIPE='{"lexical":{...}}' merges into the
 * default recipe:
 *   npx tsx test/eval/locomo/embedder-search.ts [--conversations N]
 */
import { inverseDocumentFrequency } from '../../../core/queries/search.js';
import { cosine } from '../../../pipeline/embedding/vector-math.js';
import { createGloveEmbedder } from '../../../pipeline/embedding/glove-embedder.js';
import { DEFAULT_RECIPE } from '../../../pipeline/embedding/sentence-encoder.js';
import { keywordTerms, stemmedText, termStem } from '../../../storage/vector/keywords.js';
import { SHARED_CACHE_DIR } from '../../support/server.js';
import { Bm25Index } from './bm25.js';
import { loadLocomo } from './dataset.js';

const arg = process.argv.indexOf('--conversations');
const conversations = loadLocomo().slice(0, arg > 0 ? Number(process.argv[arg + 1]) : Infinity);
const recipe = { ...DEFAULT_RECIPE, ...JSON.parse(process.env.RECIPE ?? '{}') };
const embedder = await createGloveEmbedder(SHARED_CACHE_DIR, { cacheDir: SHARED_CACHE_DIR }, recipe);

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
let ours = 0;
let bm = 0;
let n = 0;
for (const c of conversations) {
  const vectors = await embedder.embed(c.turns.map((t) => t.content));
  const bm25 = new Bm25Index();
  for (const t of c.turns) bm25.add(t.diaId, t.content);
  for (const q of c.questions) {
    const qv = queryVector(q.question);
    const top = c.turns
      .map((t, i) => ({ id: t.diaId, s: cosine(qv, vectors[i]) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.id);
    const bmTop = new Set(bm25.rank(q.question).slice(0, 10));
    ours += q.evidence.filter((e) => top.includes(e)).length / q.evidence.length;
    bm += q.evidence.filter((e) => bmTop.has(e)).length / q.evidence.length;
    n++;
  }
}
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ recipe, id: embedder.id, dimensions: embedder.dimensions, questions: n, search_recall_at_10: +(ours / n).toFixed(3), bm25: +(bm / n).toFixed(3), seconds: +seconds.toFixed(1) }));
