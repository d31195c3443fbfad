/**
 * Development aid: LoCoMo search recall@10 of a GloVe sentence recipe, straight through the
 * embedder (no server), against BM25 over the same turns. RECIPE='{"lexical":{...}}' merges into
 * the default recipe:
 *   npx tsx test/eval/locomo/embedder-search.ts
 */
import { cosine } from '../../../pipeline/embedding/vector-math.js';
import { createGloveEmbedder } from '../../../pipeline/embedding/glove-embedder.js';
import { DEFAULT_RECIPE } from '../../../pipeline/embedding/sentence-encoder.js';
import { SHARED_CACHE_DIR } from '../../support/server.js';
import { Bm25Index } from './bm25.js';
import { loadLocomo } from './dataset.js';
import { stemmer } from 'stemmer';
import { normalizeText, tokenize } from '../../../pipeline/embedding/tokenize.js';

const recipe = { ...DEFAULT_RECIPE, ...JSON.parse(process.env.RECIPE ?? '{}') };
const embedder = await createGloveEmbedder(SHARED_CACHE_DIR, { cacheDir: SHARED_CACHE_DIR }, recipe);
let ours = 0;
let bm = 0;
let n = 0;
for (const c of loadLocomo()) {
  const vectors = await embedder.embed(c.turns.map((t) => t.content));
  const df = new Map<string, number>();
  for (const t of c.turns) for (const s of new Set(tokenize(normalizeText(t.content)).map((x) => stemmer(x)))) df.set(s, (df.get(s) ?? 0) + 1);
  const N = c.turns.length;
  const idfOf = (stem: string) => {
    const f = df.get(stem) ?? 0;
    const idf = Math.log(1 + (N - f + 0.5) / (f + 0.5));
    return Math.min(1, (idf / Math.log(1 + (N + 0.5) / 1.5)) ** Number(process.env.QIDF));
  };
  const bm25 = new Bm25Index();
  for (const t of c.turns) bm25.add(t.diaId, t.content);
  for (const q of c.questions) {
    const qv = process.env.QIDF ? embedder.embedQuery(q.question, (stem) => idfOf(stem)) : embedder.embedOne(q.question);
    const top = c.turns
      .map((t, i) => ({ id: t.diaId, s: cosine(qv, vectors[i]) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, 10)
      .map((x) => x.id);
    const bmTop = new Set(bm25.rank(q.question).slice(0, 10));
    ours += q.evidence.filter((e) => top.includes(e)).length / q.evidence.length;
    bm += q.evidence.filter((e) => bmTop.has(e)).length / q.evidence.length;
    n++;
    if (process.env.DEBUG && n % 7 === 0) {
      const miss = q.evidence.filter((e) => !top.includes(e) && bmTop.has(e));
      if (miss.length) {
        const byDia = new Map(c.turns.map((t, i) => [t.diaId, i]));
        console.error('Q', q.question, '| missed', miss.map((m) => c.turns[byDia.get(m)!].content).join(' || '));
        console.error('   ours top3:', top.slice(0, 3).map((m) => c.turns[byDia.get(m)!].content.slice(0, 100)).join(' || '));
      }
    }
  }
}
console.log(JSON.stringify({ recipe, dimensions: embedder.dimensions, questions: n, search_recall_at_10: +(ours / n).toFixed(3), bm25: +(bm / n).toFixed(3) }));
