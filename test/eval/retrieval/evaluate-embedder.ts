import type { Embedder } from '../../../pipeline/types.js';
import { cosine } from '../../../pipeline/embedding/vector-math.js';
import { holdoutUsers, memories as allMemories, queries as allQueries, type EvalMemory, type EvalQuery } from './dataset.js';
import { summarize, type RankedResult, type RetrievalMetrics } from './metrics.js';

export interface QueryOutcome extends RankedResult {
  query: string;
  user_id: string;
  kind: EvalQuery['kind'];
  /** 1-based rank of the first relevant memory. */
  firstRelevantRank: number;
}

export interface EmbedderEvaluation {
  embedder: { id: string; dimensions: number };
  overall: RetrievalMetrics;
  /** Users used while tuning vs the holdout users. */
  bySplit: { dev: RetrievalMetrics; holdout: RetrievalMetrics };
  byKind: Record<EvalQuery['kind'], RetrievalMetrics>;
  outcomes: QueryOutcome[];
}

export interface EvaluationData {
  memories: readonly EvalMemory[];
  queries: readonly EvalQuery[];
}

/** Ranks each query against its own user's memories by cosine similarity and scores the rankings. */
export async function evaluateEmbedder(embedder: Embedder, data: EvaluationData = { memories: allMemories, queries: allQueries }): Promise<EmbedderEvaluation> {
  const memoryVectors = await embedder.embed(data.memories.map((m) => m.content));
  const queryVectors = embedder.embedQuery
    ? await Promise.all(data.queries.map((q) => embedder.embedQuery!(q.query)))
    : await embedder.embed(data.queries.map((q) => q.query));

  const outcomes = data.queries.map((query, i): QueryOutcome => {
    const ranked = data.memories
      .map((memory, j) => ({ key: memory.key, user_id: memory.user_id, score: cosine(queryVectors[i], memoryVectors[j]) }))
      .filter((candidate) => candidate.user_id === query.user_id)
      // Ties broken by key so the ranking (and the metrics) are deterministic.
      .sort((a, b) => b.score - a.score || a.key.localeCompare(b.key))
      .map((candidate) => candidate.key);
    const relevant = new Set(query.relevant);
    return {
      query: query.query,
      user_id: query.user_id,
      kind: query.kind,
      ranked,
      relevant: query.relevant,
      firstRelevantRank: ranked.findIndex((key) => relevant.has(key)) + 1,
    };
  });

  const isHoldout = (o: QueryOutcome) => holdoutUsers.includes(o.user_id);
  const ofKind = (kind: EvalQuery['kind']) => summarize(outcomes.filter((o) => o.kind === kind));
  return {
    embedder: { id: embedder.id, dimensions: embedder.dimensions },
    overall: summarize(outcomes),
    bySplit: { dev: summarize(outcomes.filter((o) => !isHoldout(o))), holdout: summarize(outcomes.filter(isHoldout)) },
    byKind: { paraphrase: ofKind('paraphrase'), lexical: ofKind('lexical'), entity: ofKind('entity') },
    outcomes,
  };
}
