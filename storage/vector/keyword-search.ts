import type Database from 'better-sqlite3';
import { keywordTerms } from './keywords.js';
import type { VectorFilter, VectorHit } from './types.js';

/** The SQL of one keyword search, runnable on any connection to the embedded database. */
export interface KeywordQuery {
  sql: string;
  params: unknown[];
  /** Metadata terms every hit must carry (checked on the rows, see keywordHits). */
  required: string[];
  k: number;
}

export interface KeywordRow {
  id: string;
  terms: string;
  score: number;
}

/**
 * Top `k` documents of the FTS5 keyword index matching any word of `query` within the scope,
 * by descending BM25, ties by ascending id (the VectorIndex `searchText` contract). Null when
 * the query has no searchable word.
 */
export function keywordQuery(query: string, filter: VectorFilter, k: number): KeywordQuery | null {
  const terms = keywordTerms(query);
  if (terms.length === 0 || k <= 0) return null;
  const parts = ['text_index MATCH ?', 'd.workspace_id = ?'];
  const params: unknown[] = [terms.map((t) => `"${t}"`).join(' OR '), filter.workspaceId];
  if (filter.agentId !== undefined) parts.push(filter.agentId === null ? 'd.agent_id IS NULL' : 'd.agent_id = ?');
  if (filter.agentId) params.push(filter.agentId);
  if (filter.userId !== undefined) (parts.push('d.user_id = ?'), params.push(filter.userId));
  if (filter.runId !== undefined) (parts.push('d.run_id = ?'), params.push(filter.runId));
  const required = filter.metadataTerms ?? [];
  // With metadata terms the rows are filtered after the query, so the LIMIT cannot be applied in SQL.
  if (!required.length) params.push(k);
  const sql = `SELECT d.id AS id, d.meta_terms AS terms, -bm25(text_index) AS score FROM text_index JOIN text_docs d ON d.rowid = text_index.rowid
       WHERE ${parts.join(' AND ')} ORDER BY score DESC, d.id ${required.length ? '' : 'LIMIT ?'}`;
  return { sql, params, required, k };
}

/** The hits of a keyword query from its rows. */
export function keywordHits(q: KeywordQuery, rows: KeywordRow[]): VectorHit[] {
  const matching = q.required.length ? rows.filter((r) => q.required.every((t) => (JSON.parse(r.terms) as string[]).includes(t))) : rows;
  return matching.slice(0, q.k).map((r) => ({ id: r.id, score: r.score }));
}

/** Runs a keyword search on `db`. */
export function searchKeywordIndex(db: Database.Database, query: string, filter: VectorFilter, k: number): VectorHit[] {
  const q = keywordQuery(query, filter, k);
  return q ? keywordHits(q, db.prepare(q.sql).all(...q.params) as KeywordRow[]) : [];
}
