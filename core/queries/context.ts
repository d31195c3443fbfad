import { createHash } from 'node:crypto';
import { checkAgentReadable } from '../commands/agents.js';
import { cosine, GLOVE_EMBEDDER_ID } from '../../pipeline/embedding/index.js';
import { readAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { ContextFact, MemoryRecord } from '../../storage/types.js';
import type { VectorFilter, VectorHit } from '../../storage/vector/types.js';
import { PREDICATE_FAMILIES, type Embedder } from '../../pipeline/types.js';
import { embedQuery, nearestMemories, vectorFilterOf } from './search.js';

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_TOKEN_BUDGET = 800;
/** Live facts considered per request (the most recent when a scope has more), as many as a profile shows. */
const MAX_FACTS = 200;
/** Shortest excerpt of a memory worth including when the whole memory does not fit. */
const MIN_EXCERPT_CHARS = 60;

export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Fact texts never change, so their vectors are cached by id (a cache only: misses are recomputed). */
class FactEmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  /** The embedder the cached vectors come from; another one empties the cache. */
  private embedderId: string | null = null;
  constructor(private readonly max: number) {}

  async get(embedder: Embedder, facts: ContextFact[]): Promise<Float32Array[]> {
    if (embedder.id !== this.embedderId) {
      this.vectors.clear();
      this.embedderId = embedder.id;
    }
    const missing = facts.filter((f) => !this.vectors.has(f.id));
    if (missing.length) {
      // A fact is a short statement matched against the query's vector, like a query: the length
      // prior of stored memories (which would sink every short text) does not apply to it.
      const computed = embedder.embedQuery
        ? await Promise.all(missing.map((f) => embedder.embedQuery!(factText(f))))
        : await embedder.embed(missing.map(factText));
      missing.forEach((f, i) => this.vectors.set(f.id, computed[i]));
      // Map iteration order is insertion order: drop the oldest entries.
      for (const key of this.vectors.keys()) {
        if (this.vectors.size <= this.max) break;
        this.vectors.delete(key);
      }
    }
    return facts.map((f) => this.vectors.get(f.id)!);
  }
}

/** Cosine of one query with many unit vectors, reading only the query's non-zero components (a quarter of them with the default embedder). */
function cosinesWith(query: Float32Array): (vector: Float32Array) => number {
  const support = Int32Array.from(query.keys()).filter((i) => query[i] !== 0);
  return (vector) => {
    if (vector.length !== query.length) return cosine(query, vector);
    let dot = 0;
    for (let j = 0; j < support.length; j++) dot += query[support[j]] * vector[support[j]];
    return dot;
  };
}

/**
 * A vector of the default embedder is 4 KB, so this holds about 200 MB at most: the live facts of a few hundred busy
 * users. A fact that is not held costs one encoder run (about 1.3 ms) the next time it is scored.
 */
const factEmbeddings = new FactEmbeddingCache(50_000);
const factText = (f: ContextFact) => `${f.subject} ${f.predicateRaw} ${f.object}`;

const factLine = (f: ContextFact) => `- ${f.subject} ${f.predicate.replace(/_/g, ' ')} ${f.object} (since ${f.validFrom.slice(0, 10)})`;
/** Memories carry their date, so the reader can answer "when" questions. */
const memoryLine = (m: MemoryRecord, content: string) => `- [${(m.referenceTime ?? m.createdAt).slice(0, 10)}] ${content}`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Line {
  id: string;
  text: string;
  score: number;
  /** Position in the block; lines are chosen by score but written in this order. */
  order: string;
}

/**
 * Chooses lines by descending score while the section fits in `maxChars`, then
 * writes them in their `order`. The choice is query-dependent, the layout is not,
 * so the same facts always make the same block (and `stable_hash`).
 */
function fillSection(heading: string, lines: Line[], maxChars: number, options: { truncate?: boolean } = {}) {
  let length = heading.length;
  const chosen: Line[] = [];
  for (const line of lines) {
    let text = line.text;
    const room = maxChars - length - 1;
    if (text.length > room) {
      // A long memory that does not fit whole still contributes its beginning, when there is room for it.
      if (!options.truncate || room < MIN_EXCERPT_CHARS) continue;
      text = `${text.slice(0, room - 1).trimEnd()}…`;
    }
    length += 1 + text.length;
    chosen.push({ ...line, text });
  }
  if (chosen.length === 0) return { text: '', used: [] as Line[] };
  const ordered = [...chosen].sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return { text: [heading, ...ordered.map((l) => l.text)].join('\n'), used: chosen };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byScore = (a: { score: number; id: string }, b: { score: number; id: string }) => b.score - a.score || compareText(a.id, b.id);

/** Memories fetched from each retriever before fusion. */
const CANDIDATES = 60;
/**
 * Reciprocal rank fusion: a hit at rank r adds weight / (RRF_K + r). A small K (tuned on the LoCoMo
 * development conversations) lets the first hits of either retriever lead; the vectors, which
 * already carry lexical evidence, weigh more than the keyword ranking: much more when a trained encoder
 * makes them (0.3 against 0.7 with GloVe alone, each the best on those conversations for its embedder).
 */
const RRF_K = 10;
const DENSE_WEIGHT = 1;
const keywordWeight = (embedder: Embedder) => (embedder.id.startsWith(GLOVE_EMBEDDER_ID) ? 0.7 : 0.3);
/** A fact enters the block when its cosine with the query reaches this, or when it came from a top memory. */
const FACT_MIN_COSINE = 0.5;
/** Facts said in one of the best memories of the fused ranking join the block with them. */
const FACT_SOURCE_TOP = 3;
/** Most of the budget the facts may take; the rest is for memories. */
const MAX_FACT_SHARE = 0.35;

/**
 * Fused candidates the reranker reads, best first. It runs them in one batch, so this bounds its cost per request;
 * the rest keep their fused order behind them.
 */
const RERANK_CANDIDATES = 16;
/** Characters of a memory the reranker is given: more than its piece limit holds. */
const RERANK_LINE_CHARS = 600;

/** Keyword hits; a keyword index that fails leaves context to the vectors (logged). */
async function keywordHits(svc: Services, query: string, filter: VectorFilter): Promise<VectorHit[]> {
  try {
    return await svc.vectors.searchText(query, filter, CANDIDATES);
  } catch (error) {
    svc.logger.warn({ err: error }, 'keyword search failed');
    return [];
  }
}

interface Candidate {
  memory: MemoryRecord;
  score: number;
  content: string;
}

/**
 * The best fused candidates in the reranker's order. They take the scores of the places they move into, so facts
 * and the candidates behind them compare with them as before.
 */
async function reranked(svc: Services, query: string, candidates: Candidate[]): Promise<Candidate[]> {
  if (!svc.reranker || candidates.length < 2) return candidates;
  const head = candidates.slice(0, RERANK_CANDIDATES);
  const scores = await svc.reranker.score(query, head.map(({ memory, content }) => memoryLine(memory, content.slice(0, RERANK_LINE_CHARS)).slice(2)));
  const order = head.map((_, i) => i).sort((a, b) => scores[b] - scores[a] || a - b);
  return [...order.map((i, place) => ({ ...head[i], score: head[place].score })), ...candidates.slice(RERANK_CANDIDATES)];
}

/**
 * The turns written just before and after the best hits join the candidates at a share of their hit's score: an
 * answer is often the reply to the turn the question matches, or needs the turn it replies to. 3 and 0.5 chosen
 * on the LoCoMo development conversations (context recall at 2,000 tokens 0.882 → 0.904).
 */
const NEIGHBOUR_HITS = 3;
const NEIGHBOUR_SHARE = 0.5;

/** Identical texts said twice add nothing the first did not: the best-scored one stays. */
function distinctTexts(candidates: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return candidates.filter(({ content }) => {
    const key = content.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function withNeighbours(svc: Services, workspaceId: string, candidates: Candidate[]): Promise<Candidate[]> {
  const hits = candidates.slice(0, NEIGHBOUR_HITS);
  if (hits.length === 0) return candidates;
  const around = await svc.store.memories.neighbours(workspaceId, hits.map((c) => c.memory));
  const byId = new Map(candidates.map((c) => [c.memory.id, c]));
  hits.forEach((hit, i) => {
    const score = hit.score * NEIGHBOUR_SHARE;
    for (const memory of around[i]) {
      const current = byId.get(memory.id);
      if (!current) byId.set(memory.id, { memory, score, content: oneLine(memory.content) });
      else if (current.score < score) byId.set(memory.id, { ...current, score });
    }
  });
  return distinctTexts([...byId.values()].sort((a, b) => byScore({ score: a.score, id: a.memory.id }, { score: b.score, id: b.memory.id })));
}

/**
 * GET /v1/context. Memories come from two retrievers, the embedding (cosine) and the keyword
 * index (BM25), fused by reciprocal rank. Live facts take at most a share of the budget: all of
 * them when they fit in it (a stable block), otherwise those relevant to the query (their own
 * words, or said in one of the best memories). The memories, with their dates, fill the rest,
 * best first, without duplicates.
 */
export async function assembleContext(
  svc: Services,
  principal: Principal,
  q: { query: string; user_id?: string; agent_id?: string; token_budget: number },
) {
  const agentId = readAgent(principal, q.agent_id);
  await checkAgentReadable(svc, principal, agentId);
  await svc.limits.consume('query', principal.workspace.id, principal.workspace.plan);

  const maxChars = q.token_budget * CHARS_PER_TOKEN;
  const filter = vectorFilterOf(principal, { user_id: q.user_id, agent_id: q.agent_id });
  const vector = await embedQuery(svc, q.query, filter.workspaceId);
  const [dense, lexical, liveFacts] = await Promise.all([
    nearestMemories(svc, vector, filter, CANDIDATES),
    keywordHits(svc, q.query, filter),
    svc.store.facts.listForContext({ workspaceId: principal.workspace.id, agentId, userId: q.user_id }, MAX_FACTS),
  ]);

  // Reciprocal rank fusion of the two rankings.
  const fused = new Map<string, number>();
  dense.forEach(({ memory }, rank) => fused.set(memory.id, (fused.get(memory.id) ?? 0) + DENSE_WEIGHT / (RRF_K + rank + 1)));
  const lexicalWeight = keywordWeight(svc.pipeline.embedder);
  lexical.forEach((hit, rank) => fused.set(hit.id, (fused.get(hit.id) ?? 0) + lexicalWeight / (RRF_K + rank + 1)));
  const known = new Map(dense.map(({ memory }) => [memory.id, memory]));
  const missing = lexical.map((h) => h.id).filter((id) => !known.has(id));
  for (const m of await svc.store.memories.getMany(principal.workspace.id, missing)) known.set(m.id, m);
  const ranked = [...fused]
    .flatMap(([id, score]) => {
      const memory = known.get(id);
      return memory && !memory.deletedAt ? [{ memory, score }] : [];
    })
    .sort((a, b) => byScore({ score: a.score, id: a.memory.id }, { score: b.score, id: b.memory.id }));

  const deduplicated = distinctTexts(ranked.map(({ memory, score }) => ({ memory, score, content: oneLine(memory.content) })));

  const memories = await withNeighbours(svc, principal.workspace.id, await reranked(svc, q.query, deduplicated));
  const factVectors = await factEmbeddings.get(svc.pipeline.embedder, liveFacts);
  const topSources = new Map(memories.slice(0, FACT_SOURCE_TOP).map(({ memory, score }) => [memory.id, score]));
  const cosineWithQuery = cosinesWith(vector);
  const sourceScore = (fact: ContextFact) => fact.sourceMemoryIds.reduce((best, id) => Math.max(best, topSources.get(id) ?? 0), 0);
  const scoredFacts = liveFacts
    .map((fact, i) => ({ fact, cosine: cosineWithQuery(factVectors[i]), source: sourceScore(fact) }))
    // A fact ranks with the memory it came from, or as a memory at the rank its own similarity earns.
    .map((f) => ({ ...f, relevant: f.cosine >= FACT_MIN_COSINE || f.source > 0, score: Math.max(f.source, DENSE_WEIGHT / (RRF_K + 1 + (1 - f.cosine) * 20)) }))
    // Facts said in the same memory share its score: their own similarity orders them, then their words, never
    // their ids (random, so two deployments holding the same facts would order them differently).
    .sort((a, b) => b.score - a.score || b.cosine - a.cosine || compareText(factLine(a.fact), factLine(b.fact)) || compareText(a.fact.id, b.fact.id));
  const factsMaxChars = Math.floor(maxChars * MAX_FACT_SHARE);
  // A scope whose live facts all fit in their share keeps them all, so its facts block (and
  // stable_hash) is the same for every query; beyond that only the relevant ones compete for it.
  const allFit = scoredFacts.reduce((n, f) => n + 1 + factLine(f.fact).length, 'Known facts:'.length) <= factsMaxChars;
  const relevantFacts = allFit ? scoredFacts : scoredFacts.filter((f) => f.relevant);

  const stable = fillSection(
    'Known facts:',
    relevantFacts.map(({ fact, score }) => ({
      id: fact.id,
      text: factLine(fact),
      score,
      order: `${PREDICATE_FAMILIES.indexOf(fact.family)}\u0000${fact.subjectKey}\u0000${fact.predicate}\u0000${fact.objectKey}\u0000${fact.id}`,
    })),
    factsMaxChars,
  );

  const remaining = maxChars - (stable.text ? stable.text.length + 2 : 0);
  const volatile = fillSection(
    'Relevant memories:',
    memories.map(({ memory, score, content }, rank) => ({ id: memory.id, text: memoryLine(memory, content), score, order: String(rank).padStart(4, '0') })),
    remaining,
    { truncate: true },
  );

  const context = stable.text && volatile.text ? `${stable.text}\n\n${volatile.text}` : stable.text || volatile.text;
  return {
    context,
    tokens: estimateTokens(context),
    // Most relevant first, facts and memories together; equal scores keep each section's order (a stable sort).
    sources: [...stable.used, ...volatile.used].sort((a, b) => b.score - a.score).map((line) => line.id),
    stable: stable.text,
    volatile: volatile.text,
    stable_hash: createHash('sha256').update(stable.text).digest('hex'),
  };
}
