/**
 * The vector index: cosine top-k with scope pre-filtering. Shaped so that an
 * Elasticsearch `dense_vector` kNN query with a `filter` maps onto it directly.
 */
export interface VectorDoc {
  id: string;
  workspaceId: string;
  agentId: string | null;
  userId: string | null;
  runId: string | null;
  /** `key=value` terms for exact metadata filtering (top-level scalar metadata only). */
  metadataTerms: string[];
  /** L2-normalised. */
  vector: Float32Array;
  /** The memory's text for the keyword (BM25) index; omitted = the document has no keyword entry. */
  text?: string;
}

export interface VectorFilter {
  workspaceId: string;
  /** `null` = default namespace only; undefined = any. */
  agentId?: string | null;
  userId?: string;
  runId?: string;
  /** Every term must match. */
  metadataTerms?: string[];
}

/** Whether a filter lets every document of its workspace through (no agent, user, run or metadata condition). */
export const coversWholeWorkspace = (filter: VectorFilter) =>
  filter.agentId === undefined && filter.userId === undefined && filter.runId === undefined && !filter.metadataTerms?.length;

export interface VectorHit {
  id: string;
  /** Cosine similarity in [-1, 1]. */
  score: number;
}

/** Collection statistics of a text's terms, for weighting a query's words (inverse document frequency). */
export interface TermStatistics {
  /** Documents in the collection the statistics come from. */
  documents: number;
  /** Documents containing each term, keyed by the Porter stem of the lower-cased word. */
  frequencies: Map<string, number>;
}

export interface VectorIndex {
  readonly kind: 'embedded' | 'elasticsearch';
  /** Insert or replace by id. */
  upsert(docs: VectorDoc[]): Promise<void>;
  remove(workspaceId: string, ids: string[]): Promise<void>;
  /** Removes every vector in a workspace matching the scope (user erasure, agent purge). */
  purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<void>;
  /** Top `k` by descending cosine, ties broken by ascending id (deterministic ranking). */
  search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]>;
  /**
   * Keyword search: top `k` documents matching any word of `query`, by descending BM25
   * (`score` > 0, higher is better; not comparable with cosine), ties by ascending id.
   */
  searchText(query: string, filter: VectorFilter, k: number): Promise<VectorHit[]>;
  /** Document frequencies of `query`'s words in the keyword index (over the whole index or a shard). */
  termStatistics(workspaceId: string, query: string): Promise<TermStatistics>;
  /** Every vector of one workspace, by ascending id (workspace export; the other fields come from the memories). */
  exportVectors(workspaceId: string): AsyncIterable<{ id: string; vector: Float32Array }>;
  ping(): Promise<void>;
  /** Number of vectors held, all workspaces together (for metrics). */
  size(): Promise<number>;
  close(): Promise<void>;
}

export class VectorIndexUnavailableError extends Error {}

/** Flattens top-level scalar metadata into filter terms. */
export function metadataTerms(metadata: Record<string, unknown>): string[] {
  const terms: string[] = [];
  for (const [key, value] of Object.entries(metadata)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) terms.push(`${key}=${JSON.stringify(value)}`);
  }
  return terms.sort();
}

/** Keeps the best `k` hits: score desc, then id asc. */
export function compareHits(a: VectorHit, b: VectorHit): number {
  return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
