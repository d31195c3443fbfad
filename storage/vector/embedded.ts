import type Database from 'better-sqlite3';
import { VectorPartition } from './partition.js';
import { prepareDotKernel, type DotKernel } from './simd-kernel.js';
import { keywordTerms, termStem } from './keywords.js';
import { coversWholeWorkspace, type TermStatistics, type VectorDoc, type VectorFilter, type VectorHit, type VectorIndex } from './types.js';

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
/** Whole-index matches ranked before the workspace check: k times this, and at least the minimum. */
const KEYWORD_PREFETCH_FACTOR = 4;
const KEYWORD_PREFETCH_MIN = 200;
const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * Exact cosine search over vectors persisted in the embedded SQLite database.
 * Vectors are held in memory per workspace and scanned with a SIMD kernel;
 * writes by other processes (a separate worker on the same data folder) are
 * picked up through a revision counter.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  readonly kind = 'embedded' as const;
  private readonly partitions = new Map<string, VectorPartition>();
  private lastRev = 0;
  private dataVersion = -1;

  private constructor(
    private readonly db: Database.Database,
    private readonly makeKernel: () => DotKernel,
    /** False for a writer (a pipeline thread): it persists vectors and never loads or searches them. */
    private readonly searchable = true,
  ) {
    if (searchable) this.sync();
  }

  static async open(db: Database.Database): Promise<EmbeddedVectorIndex> {
    return new EmbeddedVectorIndex(db, await prepareDotKernel());
  }

  /** Write-only access for pipeline threads; the searching index picks their rows up through the revision counter. */
  static openWriter(db: Database.Database): EmbeddedVectorIndex {
    return new EmbeddedVectorIndex(
      db,
      () => {
        throw new Error('a writer vector index does not search');
      },
      false,
    );
  }

  private partition(workspaceId: string, dimensions: number): VectorPartition {
    let p = this.partitions.get(workspaceId);
    if (!p) this.partitions.set(workspaceId, (p = new VectorPartition(this.makeKernel, dimensions)));
    return p;
  }

  /**
   * Takes `n` revisions at once and returns the first. Once per write, before the keyword index
   * is touched: a statement with RETURNING between FTS5 inserts makes FTS5 write its pending
   * terms out as a segment of their own, and merging thousands of tiny segments made loading a
   * large workspace slower with every row (600 µs a row at 200k rows, 160 µs without).
   */
  private takeRevs(n: number): number {
    const last = (
      this.db
        .prepare(`INSERT INTO sequences (name, value) VALUES ('vector_rev', ?) ON CONFLICT (name) DO UPDATE SET value = value + ? RETURNING value`)
        .get(n, n) as { value: number }
    ).value;
    return last - n + 1;
  }

  /** Applies rows and tombstones written since the last sync (by any process). */
  private sync(): void {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    const events: { rev: number; apply: () => void }[] = [];
    for (const r of this.db.prepare('SELECT * FROM vectors WHERE rev > ?').all(this.lastRev) as any[]) {
      events.push({
        rev: r.rev,
        apply: () => {
          const vector = fromBlob(r.vec);
          this.partition(r.workspace_id, vector.length).put(
            { id: r.id, agentId: r.agent_id, userId: r.user_id, runId: r.run_id, terms: JSON.parse(r.meta_terms) },
            vector,
          );
        },
      });
    }
    for (const t of this.db.prepare('SELECT id, rev FROM vector_tombstones WHERE rev > ?').all(this.lastRev) as any[]) {
      events.push({ rev: t.rev, apply: () => this.partitions.forEach((p) => p.delete(t.id)) });
    }
    events.sort((a, b) => a.rev - b.rev);
    for (const e of events) {
      e.apply();
      this.lastRev = Math.max(this.lastRev, e.rev);
    }
  }

  async upsert(docs: VectorDoc[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO vectors (id, workspace_id, agent_id, user_id, run_id, meta_terms, vec, rev) VALUES (?,?,?,?,?,?,?,?)
       ON CONFLICT (id) DO UPDATE SET workspace_id = excluded.workspace_id, agent_id = excluded.agent_id, user_id = excluded.user_id,
         run_id = excluded.run_id, meta_terms = excluded.meta_terms, vec = excluded.vec, rev = excluded.rev`,
    );
    this.db.transaction(() => {
      const first = docs.length > 0 ? this.takeRevs(docs.length) : 0;
      docs.forEach((d, i) => insert.run(d.id, d.workspaceId, d.agentId, d.userId, d.runId, JSON.stringify(d.metadataTerms), toBlob(d.vector), first + i));
      for (const d of docs) this.indexText(d);
    }).immediate();
    this.textWrites++;
    if (!this.searchable) return;
    for (const d of docs) {
      this.partition(d.workspaceId, d.vector.length).put(
        { id: d.id, agentId: d.agentId, userId: d.userId, runId: d.runId, terms: d.metadataTerms },
        d.vector,
      );
    }
  }

  /**
   * Replaces the document's keyword entry (none when it has no text). Runs inside the caller's
   * transaction, with no RETURNING clause: see takeRevs.
   */
  private indexText(d: VectorDoc): void {
    this.unindexText(d.workspaceId, d.id);
    if (!d.text?.trim()) return;
    const { lastInsertRowid } = this.db
      .prepare('INSERT INTO text_docs (id, workspace_id, agent_id, user_id, run_id, meta_terms) VALUES (?,?,?,?,?,?)')
      .run(d.id, d.workspaceId, d.agentId, d.userId, d.runId, JSON.stringify(d.metadataTerms));
    this.db.prepare('INSERT INTO text_index (rowid, content) VALUES (?, ?)').run(lastInsertRowid, d.text);
  }

  private unindexText(workspaceId: string, id: string): void {
    const row = this.db.prepare('SELECT rowid FROM text_docs WHERE id = ? AND workspace_id = ?').get(id, workspaceId) as { rowid: number } | undefined;
    if (!row) return;
    this.db.prepare('DELETE FROM text_docs WHERE rowid = ?').run(row.rowid);
    // contentless_delete + secure-delete: the words leave the index's pages, not only its results.
    this.db.prepare('DELETE FROM text_index WHERE rowid = ?').run(row.rowid);
  }

  private removeIds(workspaceId: string, ids: string[]): void {
    if (ids.length === 0) return;
    const del = this.db.prepare('DELETE FROM vectors WHERE id = ? AND workspace_id = ?');
    const tomb = this.db.prepare('INSERT INTO vector_tombstones (id, rev) VALUES (?, ?)');
    this.db.transaction(() => {
      const deleted = ids.filter((id) => del.run(id, workspaceId).changes > 0);
      const first = deleted.length > 0 ? this.takeRevs(deleted.length) : 0;
      deleted.forEach((id, i) => tomb.run(id, first + i));
      for (const id of ids) this.unindexText(workspaceId, id);
    }).immediate();
    this.textWrites++;
    const p = this.partitions.get(workspaceId);
    for (const id of ids) p?.delete(id);
  }

  async remove(workspaceId: string, ids: string[]): Promise<void> {
    this.removeIds(workspaceId, ids);
  }

  async purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<void> {
    const parts = ['workspace_id = ?'];
    const params: unknown[] = [filter.workspaceId];
    for (const [column, value] of [['agent_id', filter.agentId], ['user_id', filter.userId]] as const) {
      if (value === undefined) continue;
      if (value === null) parts.push(`${column} IS NULL`);
      else {
        parts.push(`${column} = ?`);
        params.push(value);
      }
    }
    const ids = (this.db.prepare(`SELECT id FROM vectors WHERE ${parts.join(' AND ')}`).all(...params) as { id: string }[]).map((r) => r.id);
    this.removeIds(filter.workspaceId, ids);
  }

  async *exportVectors(workspaceId: string): AsyncIterable<{ id: string; vector: Float32Array }> {
    const page = this.db.prepare('SELECT id, vec FROM vectors WHERE workspace_id = ? AND id > ? ORDER BY id LIMIT 500');
    for (let after = ''; ; ) {
      const rows = page.all(workspaceId, after) as { id: string; vec: Buffer }[];
      for (const r of rows) yield { id: r.id, vector: fromBlob(r.vec) };
      if (rows.length < 500) return;
      after = rows[rows.length - 1].id;
    }
  }

  async search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]> {
    if (!this.searchable) throw new Error('a writer vector index does not search');
    this.sync();
    return this.partitions.get(filter.workspaceId)?.search(vector, filter, k) ?? [];
  }

  /**
   * The k best keyword matches in the filter's scope by BM25; equal scores keep the order the
   * documents were (last) indexed in, which the index knows without reading their rows.
   */
  async searchText(query: string, filter: VectorFilter, k: number): Promise<VectorHit[]> {
    const terms = keywordTerms(query);
    if (terms.length === 0 || k <= 0) return [];
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    return (coversWholeWorkspace(filter) && this.bestMatchesOfWorkspace(match, filter.workspaceId, k)) || this.bestMatchesInScope(match, filter, k);
  }

  /**
   * Ranks the whole index's best matches first and looks up only their rows: joining every match
   * to its row for the workspace check doubles the cost of a common word. Exact when k of the
   * prefetched rows are the workspace's (any row not prefetched ranks below all of them);
   * undefined otherwise, and the caller ranks within the scope.
   */
  private bestMatchesOfWorkspace(match: string, workspaceId: string, k: number): VectorHit[] | undefined {
    const prefetch = Math.max(KEYWORD_PREFETCH_MIN, k * KEYWORD_PREFETCH_FACTOR);
    const ranked = this.db
      .prepare('SELECT rowid, -bm25(text_index) AS score FROM text_index WHERE text_index MATCH ? ORDER BY score DESC, rowid LIMIT ?')
      .all(match, prefetch) as { rowid: number; score: number }[];
    if (ranked.length === 0) return [];
    const ids = new Map(
      (
        this.db
          // CROSS JOIN keeps the prefetched rowids as the outer loop: one lookup each, not a walk of the workspace.
          .prepare('SELECT d.rowid AS rowid, d.id AS id FROM json_each(?) r CROSS JOIN text_docs d ON d.rowid = r.value WHERE d.workspace_id = ?')
          .all(JSON.stringify(ranked.map((r) => r.rowid)), workspaceId) as { rowid: number; id: string }[]
      ).map((r) => [r.rowid, r.id]),
    );
    const hits = ranked.flatMap((r) => (ids.has(r.rowid) ? [{ id: ids.get(r.rowid)!, score: r.score }] : []));
    return hits.length >= k || ranked.length < prefetch ? hits.slice(0, k) : undefined;
  }

  private bestMatchesInScope(match: string, filter: VectorFilter, k: number): VectorHit[] {
    const parts = ['text_index MATCH ?', 'd.workspace_id = ?'];
    const params: unknown[] = [match, filter.workspaceId];
    if (filter.agentId !== undefined) parts.push(filter.agentId === null ? 'd.agent_id IS NULL' : 'd.agent_id = ?');
    if (filter.agentId) params.push(filter.agentId);
    if (filter.userId !== undefined) (parts.push('d.user_id = ?'), params.push(filter.userId));
    if (filter.runId !== undefined) (parts.push('d.run_id = ?'), params.push(filter.runId));
    const required = filter.metadataTerms ?? [];
    const rows = this.db
      .prepare(
        `SELECT d.id AS id, d.meta_terms AS terms, -bm25(text_index) AS score FROM text_index JOIN text_docs d ON d.rowid = text_index.rowid
         WHERE ${parts.join(' AND ')} ORDER BY score DESC, d.rowid ${required.length ? '' : 'LIMIT ?'}`,
      )
      .all(...params, ...(required.length ? [] : [k])) as { id: string; terms: string; score: number }[];
    const matching = required.length ? rows.filter((r) => required.every((t) => (JSON.parse(r.terms) as string[]).includes(t))) : rows;
    return matching.slice(0, k).map((r) => ({ id: r.id, score: r.score }));
  }

  async termStatistics(_workspaceId: string, query: string): Promise<TermStatistics> {
    const stems = [...new Set(keywordTerms(query).map(termStem))];
    const frequencies = new Map<string, number>();
    if (stems.length) {
      const rows = this.db.prepare(`SELECT term, doc FROM text_index_terms WHERE term IN (${stems.map(() => '?').join(',')})`).all(...stems) as { term: string; doc: number }[];
      for (const r of rows) frequencies.set(r.term, r.doc);
    }
    return { documents: this.documentCount(), frequencies };
  }

  /** Keyword-index writes made through this connection (other connections' show in data_version). */
  private textWrites = 0;
  private counted: { version: number; writes: number; documents: number } | null = null;

  /**
   * Documents in the keyword index, recounted only after a write to it: by this index, or by
   * another connection. Not after any write of this connection (the rate limiter writes on
   * every request), so the count is not redone for every query.
   */
  private documentCount(): number {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (this.counted?.version !== version || this.counted.writes !== this.textWrites) {
      this.counted = { version, writes: this.textWrites, documents: (this.db.prepare('SELECT count(*) AS n FROM text_docs').get() as { n: number }).n };
    }
    return this.counted.documents;
  }

  /** Rewrites the keyword index's b-trees (after large erasures; deleted words are already gone). */
  optimizeText(): void {
    this.db.prepare(`INSERT INTO text_index (text_index) VALUES ('optimize')`).run();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async size(): Promise<number> {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM vectors').get() as { n: number }).n;
  }

  async close(): Promise<void> {}
}
