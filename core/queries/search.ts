import { searchUnavailable } from '../errors.js';
import { toUnitScore } from '../../pipeline/embedding/index.js';
import { readAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { MemoryRecord } from '../../storage/types.js';
import { metadataTerms, type TermStatistics, type VectorFilter, type VectorHit } from '../../storage/vector/types.js';

export const SNIPPET_CHARS = 280;

/** At most 280 characters, cut at a word boundary when the text is longer. */
export function snippetOf(content: string): string {
  const text = content.replace(/\s+/g, ' ').trim();
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS - 1);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > SNIPPET_CHARS * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

export interface ScopeQuery {
  user_id?: string;
  agent_id?: string;
  run_id?: string;
  metadata?: Record<string, unknown>;
}

export function vectorFilterOf(principal: Principal, q: ScopeQuery): VectorFilter {
  return {
    workspaceId: principal.workspace.id,
    agentId: readAgent(principal, q.agent_id),
    userId: q.user_id,
    runId: q.run_id,
    metadataTerms: q.metadata ? metadataTerms(q.metadata) : undefined,
  };
}

/** Below this many indexed memories, document frequencies say little: the query is embedded as is. */
const MIN_DOCUMENTS_FOR_IDF = 50;
/** Share of a word's weight that does not depend on its document frequency. */
const IDF_FLOOR = 0.15;

/**
 * Each query word's weight from the collection's statistics: BM25's idf scaled to [IDF_FLOOR, 1],
 * so a name that appears in half the memories stops outweighing the rare word that singles out the
 * answer. Undefined when the collection is too small for frequencies to mean anything.
 */
export function inverseDocumentFrequency(stats: TermStatistics): ((stem: string) => number) | undefined {
  const n = stats.documents;
  if (n < MIN_DOCUMENTS_FOR_IDF) return undefined;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const top = idf(1);
  return (stem) => IDF_FLOOR + (1 - IDF_FLOOR) * Math.min(1, idf(stats.frequencies.get(stem) ?? 0) / top);
}

/**
 * The query's embedding. With an embedder that supports it, each word is weighted by its inverse
 * document frequency in the collection (`inverseDocumentFrequency`). Memories' vectors never change;
 * only the query adapts to the collection.
 */
export async function embedQuery(svc: Services, query: string, workspaceId?: string): Promise<Float32Array> {
  const embedder = svc.pipeline.embedder;
  if (!embedder.embedQuery) return (await embedder.embed([query]))[0];
  if (!workspaceId) return embedder.embedQuery(query);
  let stats: TermStatistics;
  try {
    stats = await svc.vectors.termStatistics(workspaceId, query);
  } catch (error) {
    svc.logger.warn({ err: error }, 'term statistics failed');
    throw searchUnavailable();
  }
  return embedder.embedQuery(query, inverseDocumentFrequency(stats));
}

/** Top-k active memories by cosine; vector backend failures become 503 search_unavailable. */
export async function nearestMemories(
  svc: Services,
  vector: Float32Array,
  filter: VectorFilter,
  k: number,
): Promise<{ hit: VectorHit; memory: MemoryRecord }[]> {
  let hits: VectorHit[];
  try {
    hits = await svc.vectors.search(vector, filter, k);
  } catch (error) {
    svc.logger.warn({ err: error }, 'vector search failed');
    throw searchUnavailable();
  }
  const memories = new Map((await svc.store.memories.getMany(filter.workspaceId, hits.map((h) => h.id))).map((m) => [m.id, m]));
  return hits.flatMap((hit) => {
    const memory = memories.get(hit.id);
    return memory && !memory.deletedAt ? [{ hit, memory }] : [];
  });
}

/** POST /v1/memories/search */
export async function searchMemories(svc: Services, principal: Principal, q: ScopeQuery & { query: string; limit: number }) {
  const filter = vectorFilterOf(principal, q);
  await svc.limits.consume('query', principal.workspace.id, principal.workspace.plan);
  const vector = await embedQuery(svc, q.query, filter.workspaceId);
  const found = await nearestMemories(svc, vector, filter, q.limit);
  return {
    results: found.map(({ hit, memory }) => ({
      id: memory.id,
      score: toUnitScore(hit.score),
      snippet: snippetOf(memory.content),
      user_id: memory.userId,
      agent_id: memory.agentId,
      metadata: memory.metadata,
    })),
  };
}
