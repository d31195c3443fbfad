/**
 * Ranking metrics over ranked lists of ids. Pure functions.
 *
 * recall@k is "capped" (as in BEIR): |relevant ∩ top k| / min(k, |relevant|), so a
 * perfect ranking scores 1 even when a query has more relevant items than k.
 */

export interface RankedResult {
  /** Candidate ids, best first. */
  ranked: readonly string[];
  relevant: readonly string[];
}

export interface RetrievalMetrics {
  queries: number;
  recallAt1: number;
  recallAt5: number;
  mrr: number;
}

export function recallAtK(ranked: readonly string[], relevant: readonly string[], k: number): number {
  if (relevant.length === 0) throw new Error('recallAtK: a query needs at least one relevant id');
  if (!(k >= 1)) throw new Error('recallAtK: k must be >= 1');
  const wanted = new Set(relevant);
  let found = 0;
  for (const id of ranked.slice(0, k)) if (wanted.has(id)) found++;
  return found / Math.min(k, wanted.size);
}

/** 1 / (1-based rank of the first relevant id), 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const wanted = new Set(relevant);
  const index = ranked.findIndex((id) => wanted.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}

const mean = (values: number[]) => (values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length);

export function summarize(results: readonly RankedResult[]): RetrievalMetrics {
  return {
    queries: results.length,
    recallAt1: mean(results.map((r) => recallAtK(r.ranked, r.relevant, 1))),
    recallAt5: mean(results.map((r) => recallAtK(r.ranked, r.relevant, 5))),
    mrr: mean(results.map((r) => reciprocalRank(r.ranked, r.relevant))),
  };
}
