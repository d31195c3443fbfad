import type Database from 'better-sqlite3';
import { VectorPartition, type RowMeta } from './partition.js';
import { dirname, join } from 'node:path';
import { GraphPartition } from './graph-partition.js';
import { textScopeWord } from '../sqlite/text-scope.js';
import { GraphSnapshots } from './graph-snapshots.js';
import { prepareDotKernel, type DotKernel } from './simd-kernel.js';
import { keywordTerms, termStem } from './keywords.js';
import { coversWholeWorkspace, type TermStatistics, type VectorDoc, type VectorFilter, type VectorHit, type VectorIndex } from './types.js';

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
/** Whole-index matches ranked before the workspace check: k times this, and at least the minimum. */
const KEYWORD_PREFETCH_FACTOR = 4;
const KEYWORD_PREFETCH_MIN = 200;
/**
 * From this many documents on, a keyword search leaves out query terms that more than COMMON_TERM_SHARE of the
 * documents contain, while a rarer term remains: FTS5 scores every document a term matches before it can rank,
 * and such a term's BM25 weight is small. Below it every term counts (the LoCoMo evaluation's sizes, and 100k).
 */
const PRUNE_TERMS_MIN_DOCUMENTS = 200_000;
const COMMON_TERM_SHARE = 0.01;
/**
 * Counting the documents that hold a term reads its whole posting list (about 15 ms for a term in every document of a
 * million), so from this many documents on a term's count is kept and reused while the index has grown or shrunk by
 * at most FREQUENCY_STALE_SHARE since it was taken: an idf weight moves by a fraction of a percent meanwhile.
 */
const CACHE_FREQUENCIES_MIN_DOCUMENTS = 10_000;
const FREQUENCY_STALE_SHARE = 0.01;
const CACHED_FREQUENCIES_MAX = 50_000;
const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
/**
 * A workspace with this many vectors moves from the exact scan to the graph (GraphPartition):
 * beyond it a workspace-wide exact scan takes over 10 ms on these 2-core machines, and float
 * copies of a million rows would not fit in memory. VECTOR_GRAPH_MIN_ROWS sets it.
 */
export const GRAPH_MIN_ROWS = 50_000;
/** Rows copied into a growing graph per step, and per row written meanwhile (so that the copy outruns writes). */
const BUILD_STEP = 256;
const BUILD_PER_WRITE = 2;

type Partition = VectorPartition | GraphPartition;

interface VectorRow {
  id: string;
  workspace_id: string;
  agent_id: string | null;
  user_id: string | null;
  run_id: string | null;
  meta_terms: string;
  vec: Buffer;
  rev: number;
}

const metaOf = (r: VectorRow): RowMeta => ({ id: r.id, agentId: r.agent_id, userId: r.user_id, runId: r.run_id, terms: JSON.parse(r.meta_terms), rev: r.rev });

/** A graph being filled from the persisted rows (by ascending revision) while the exact partition keeps serving. */
interface GraphBuild {
  graph: GraphPartition;
  /** Rows up to this revision are in the graph. */
  cursor: number;
}

export interface EmbeddedVectorIndexOptions {
  /** Rows at which a workspace moves to the graph (default GRAPH_MIN_ROWS); 0 puts every workspace in a graph from its first row. */
  graphMinRows?: number;
  /** Documents from which keyword searches leave out common terms (default PRUNE_TERMS_MIN_DOCUMENTS). */
  pruneTermsMinDocuments?: number;
}

/**
 * Cosine search over vectors persisted in the embedded SQLite database. Each workspace's
 * vectors are held in memory: exactly (int8 codes and float32 rows scanned with a SIMD
 * kernel) up to graphMinRows rows, as an HNSW graph rescored exactly beyond. Writes by
 * other processes (a separate worker on the same data folder) are picked up through a
 * revision counter.
 */
export class EmbeddedVectorIndex implements VectorIndex {
  readonly kind = 'embedded' as const;
  private readonly partitions = new Map<string, Partition>();
  private readonly builds = new Map<string, GraphBuild>();
  private lastRev = 0;
  private dataVersion = -1;
  private readonly graphMinRows: number;
  private readonly pruneTermsMinDocuments: number;
  /** Saved graphs, or null for a database without a folder (in memory). */
  private readonly snapshots: GraphSnapshots | null;
  /** Per graph workspace, its size when last saved or loaded. */
  private readonly savedSize = new Map<string, number>();
  /** Graph workspaces changed since they were last saved. */
  private readonly unsaved = new Set<string>();
  /** Workspaces that were large at start-up: their partition is a graph from the first row. */
  private readonly large = new Set<string>();
  private loading = false;
  private saving = false;

  private constructor(
    private readonly db: Database.Database,
    private readonly makeKernel: () => DotKernel,
    /** False for a writer (a pipeline thread): it persists vectors and never loads or searches them. */
    private readonly searchable = true,
    options: EmbeddedVectorIndexOptions = {},
  ) {
    this.graphMinRows = options.graphMinRows ?? GRAPH_MIN_ROWS;
    this.pruneTermsMinDocuments = options.pruneTermsMinDocuments ?? PRUNE_TERMS_MIN_DOCUMENTS;
    this.snapshots = db.memory ? null : new GraphSnapshots(db, join(dirname(db.name), 'graphs'));
    if (searchable) this.load();
  }

  static async open(db: Database.Database, options: EmbeddedVectorIndexOptions = {}): Promise<EmbeddedVectorIndex> {
    return new EmbeddedVectorIndex(db, await prepareDotKernel(), true, options);
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

  /** Resolves once no workspace is still moving to its graph. */
  async indexed(): Promise<void> {
    while (this.builds.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Whether a workspace is searched through the graph (or is moving to it). */
  usesGraph(workspaceId: string): boolean {
    return this.partitions.get(workspaceId) instanceof GraphPartition || this.builds.has(workspaceId);
  }

  private newGraph(workspaceId: string, dimensions: number): GraphPartition {
    return new GraphPartition(dimensions, (ids) => this.floatRows(workspaceId, ids));
  }

  /**
   * Loads every persisted vector. A large workspace loads its saved graph and the rows written
   * after it, or builds its graph from every row (then saves it). One read transaction: one
   * consistent view of rows, tombstones and the revision counter.
   */
  private load(): void {
    const built: string[] = [];
    this.loading = true;
    try {
      this.db.transaction(() => {
        this.dataVersion = this.db.pragma('data_version', { simple: true }) as number;
        const counts = this.db.prepare('SELECT workspace_id, count(*) AS n FROM vectors GROUP BY workspace_id').all() as { workspace_id: string; n: number }[];
        const from = new Map<string, number>();
        for (const { workspace_id: ws, n } of counts) {
          from.set(ws, 0);
          if (n < this.graphMinRows) continue;
          this.large.add(ws);
          const saved = this.snapshots?.load(ws, (ids) => this.floatRows(ws, ids));
          if (saved) {
            this.partitions.set(ws, saved.partition);
            this.savedSize.set(ws, saved.partition.size);
            from.set(ws, saved.rev);
          } else built.push(ws);
        }
        // A saved graph misses the removals after its revision (the rest start from the table as it is).
        const oldest = Math.min(...[...from.values()].filter((rev) => rev > 0));
        if (Number.isFinite(oldest)) {
          for (const t of this.db.prepare('SELECT id, rev FROM vector_tombstones WHERE rev > ?').iterate(oldest) as Iterable<{ id: string; rev: number }>) {
            for (const [ws, rev] of from) if (t.rev > rev && rev > 0) this.deleteFrom(ws, t.id);
          }
        }
        for (const [ws, rev] of from) {
          for (const r of this.db.prepare('SELECT * FROM vectors WHERE workspace_id = ? AND rev > ? ORDER BY rev').iterate(ws, rev) as Iterable<VectorRow>) {
            this.put(ws, metaOf(r), fromBlob(r.vec));
          }
        }
        this.lastRev = this.currentRev();
      })();
    } finally {
      this.loading = false;
    }
    for (const ws of built) this.save(ws);
  }

  private currentRev(): number {
    return (this.db.prepare(`SELECT value FROM sequences WHERE name = 'vector_rev'`).get() as { value: number } | undefined)?.value ?? 0;
  }

  private partition(workspaceId: string, dimensions: number): Partition {
    let p = this.partitions.get(workspaceId);
    if (!p) {
      const graph = this.graphMinRows === 0 || this.large.has(workspaceId);
      p = graph ? this.newGraph(workspaceId, dimensions) : new VectorPartition(this.makeKernel, dimensions);
      this.partitions.set(workspaceId, p);
    }
    return p;
  }

  private put(workspaceId: string, meta: RowMeta, vector: Float32Array): void {
    const p = this.partition(workspaceId, vector.length);
    p.put(meta, vector);
    if (p instanceof GraphPartition) {
      this.unsaved.add(workspaceId);
      // Saved again once doubled since the last save, so that a crash does not cost a whole rebuild.
      if (!this.loading && p.size >= this.graphMinRows && p.size >= 2 * (this.savedSize.get(workspaceId) ?? 0)) this.save(workspaceId);
      return;
    }
    const build = this.builds.get(workspaceId);
    if (build) this.buildStep(workspaceId, build, BUILD_PER_WRITE);
    else if (p.size >= this.graphMinRows) this.startBuild(workspaceId, p.dimensions);
  }

  /** Removes a row from the workspace's partition and graph build; a saved graph that held it is erased first. */
  private deleteFrom(workspaceId: string, id: string): void {
    const p = this.partitions.get(workspaceId);
    const build = this.builds.get(workspaceId);
    if (p instanceof GraphPartition && p.has(id)) this.snapshots?.drop(workspaceId);
    p?.delete(id);
    build?.graph.delete(id);
  }

  /** Saves the workspace's graph if it is clean (no removed rows), as of the last revision applied. */
  private save(workspaceId: string): void {
    const p = this.partitions.get(workspaceId);
    if (!this.snapshots || !(p instanceof GraphPartition) || !p.clean || this.saving) return;
    this.saving = true;
    try {
      this.sync();
      if (!p.clean || !this.snapshots.save(workspaceId, p, this.lastRev)) return;
      this.savedSize.set(workspaceId, p.size);
      this.unsaved.delete(workspaceId);
    } finally {
      this.saving = false;
    }
  }

  private startBuild(workspaceId: string, dimensions: number): void {
    const build: GraphBuild = { graph: this.newGraph(workspaceId, dimensions), cursor: 0 };
    this.builds.set(workspaceId, build);
    const next = () => {
      if (this.builds.get(workspaceId) !== build) return;
      this.buildStep(workspaceId, build, BUILD_STEP);
      if (this.builds.get(workspaceId) === build) setImmediate(next);
    };
    setImmediate(next);
  }

  /** Copies up to `rows` persisted rows into the graph; once it holds them all, the graph serves (and is saved). */
  private buildStep(workspaceId: string, build: GraphBuild, rows: number): void {
    const page = this.db
      .prepare('SELECT * FROM vectors WHERE workspace_id = ? AND rev > ? ORDER BY rev LIMIT ?')
      .all(workspaceId, build.cursor, rows) as VectorRow[];
    for (const r of page) build.graph.put(metaOf(r), fromBlob(r.vec));
    if (page.length > 0) build.cursor = page[page.length - 1].rev;
    if (page.length < rows) {
      this.builds.delete(workspaceId);
      this.partitions.set(workspaceId, build.graph);
      if (!this.loading) this.save(workspaceId);
    }
  }

  /** The float vectors of a workspace's rows (for the graph's exact rescoring). */
  private floatRows(workspaceId: string, ids: string[]): Map<string, Float32Array> {
    const rows = this.db
      // CROSS JOIN keeps the ids as the outer loop: one primary-key lookup each.
      .prepare('SELECT v.id AS id, v.vec AS vec FROM json_each(?) i CROSS JOIN vectors v ON v.id = i.value WHERE v.workspace_id = ?')
      .all(JSON.stringify(ids), workspaceId) as { id: string; vec: Buffer }[];
    return new Map(rows.map((r) => [r.id, r.vec.byteOffset % 4 === 0 ? new Float32Array(r.vec.buffer, r.vec.byteOffset, r.vec.byteLength / 4) : fromBlob(r.vec)]));
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

  /** Applies rows and tombstones written since the last sync by another connection (a pipeline thread or process). */
  private sync(): void {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.applyChanges();
  }

  /**
   * Tombstones first, then rows: a deleted row's tombstone is older than any later write of
   * the same id, so this order ends with what the table holds. Rows are read one at a time
   * (a million of them do not fit in one array).
   */
  private applyChanges(): void {
    let rev = this.lastRev;
    const workspaces = new Set([...this.partitions.keys(), ...this.builds.keys()]);
    for (const t of this.db.prepare('SELECT id, rev FROM vector_tombstones WHERE rev > ?').iterate(this.lastRev) as Iterable<{ id: string; rev: number }>) {
      for (const ws of workspaces) this.deleteFrom(ws, t.id);
      rev = Math.max(rev, t.rev);
    }
    for (const r of this.db.prepare('SELECT * FROM vectors WHERE rev > ? ORDER BY rev').iterate(this.lastRev) as Iterable<VectorRow>) {
      this.put(r.workspace_id, metaOf(r), fromBlob(r.vec));
      rev = Math.max(rev, r.rev);
    }
    this.lastRev = rev;
  }

  async upsert(docs: VectorDoc[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO vectors (id, workspace_id, agent_id, user_id, run_id, meta_terms, vec, rev) VALUES (?,?,?,?,?,?,?,?)
       ON CONFLICT (id) DO UPDATE SET workspace_id = excluded.workspace_id, agent_id = excluded.agent_id, user_id = excluded.user_id,
         run_id = excluded.run_id, meta_terms = excluded.meta_terms, vec = excluded.vec, rev = excluded.rev`,
    );
    const revs: number[] = [];
    let current = false;
    this.db.transaction(() => {
      current = this.currentRev() === this.lastRev;
      const first = docs.length > 0 ? this.takeRevs(docs.length) : 0;
      docs.forEach((d, i) => {
        insert.run(d.id, d.workspaceId, d.agentId, d.userId, d.runId, JSON.stringify(d.metadataTerms), toBlob(d.vector), first + i);
        revs.push(first + i);
      });
      for (const d of docs) this.indexText(d);
    }).immediate();
    this.textWrites++;
    if (!this.searchable) return;
    // Nothing was written since the last revision applied: this index is current up to its own writes.
    if (current && revs.length > 0) this.lastRev = revs[revs.length - 1];
    docs.forEach((d, i) => this.put(d.workspaceId, { id: d.id, agentId: d.agentId, userId: d.userId, runId: d.runId, terms: d.metadataTerms, rev: revs[i] }, d.vector));
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
    this.db.prepare('INSERT INTO text_index (rowid, content, scope) VALUES (?, ?, ?)').run(lastInsertRowid, d.text, textScopeWord(d.workspaceId, d.userId));
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
    let current = false;
    let last = 0;
    this.db.transaction(() => {
      current = this.currentRev() === this.lastRev;
      const deleted = ids.filter((id) => del.run(id, workspaceId).changes > 0);
      const first = deleted.length > 0 ? this.takeRevs(deleted.length) : 0;
      deleted.forEach((id, i) => tomb.run(id, (last = first + i)));
      for (const id of ids) this.unindexText(workspaceId, id);
    }).immediate();
    this.textWrites++;
    // A pipeline thread's removal erases the saved graph too (the searching index may not have read it yet).
    if (last > 0) this.snapshots?.drop(workspaceId);
    if (!this.searchable) return;
    if (current && last > 0) this.lastRev = last;
    for (const id of ids) this.deleteFrom(workspaceId, id);
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
    // By primary key (+workspace_id keeps SQLite off vectors_ws_rev, which would sort the whole workspace for each page).
    const page = this.db.prepare('SELECT id, vec FROM vectors WHERE +workspace_id = ? AND id > ? ORDER BY id LIMIT 500');
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
    const terms = this.withoutCommonTerms(keywordTerms(query));
    if (terms.length === 0 || k <= 0) return [];
    const match = `{content} : (${terms.map((t) => `"${t}"`).join(' OR ')})`;
    if (coversWholeWorkspace(filter)) return this.bestMatchesOfWorkspace(match, filter.workspaceId, k) ?? this.bestMatchesInScope(match, filter, k);
    // One user's documents only: FTS5 intersects the words' matches with the user's scope word before scoring.
    return this.bestMatchesInScope(filter.userId === undefined ? match : `${match} AND {scope} : "${textScopeWord(filter.workspaceId, filter.userId)}"`, filter, k);
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
      .prepare('SELECT rowid, -bm25(text_index, 1, 0) AS score FROM text_index WHERE text_index MATCH ? ORDER BY score DESC, rowid LIMIT ?')
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
        `SELECT d.id AS id, d.meta_terms AS terms, -bm25(text_index, 1, 0) AS score FROM text_index JOIN text_docs d ON d.rowid = text_index.rowid
         WHERE ${parts.join(' AND ')} ORDER BY score DESC, d.rowid ${required.length ? '' : 'LIMIT ?'}`,
      )
      .all(...params, ...(required.length ? [] : [k])) as { id: string; terms: string; score: number }[];
    const matching = required.length ? rows.filter((r) => required.every((t) => (JSON.parse(r.terms) as string[]).includes(t))) : rows;
    return matching.slice(0, k).map((r) => ({ id: r.id, score: r.score }));
  }

  async termStatistics(_workspaceId: string, query: string): Promise<TermStatistics> {
    return { documents: this.documentCount(), frequencies: this.documentFrequencies(keywordTerms(query).map(termStem)) };
  }

  /** Document frequencies counted in a large index, with the index's size when each was counted. */
  private readonly frequencies = new Map<string, { documents: number; counted: number }>();

  /** Documents of the whole index containing each stem (in a large index, as counted within FREQUENCY_STALE_SHARE). */
  private documentFrequencies(stems: string[]): Map<string, number> {
    const unique = [...new Set(stems)];
    const documents = this.documentCount();
    if (documents < CACHE_FREQUENCIES_MIN_DOCUMENTS) return this.countDocuments(unique);
    const tolerance = documents * FREQUENCY_STALE_SHARE;
    const stale = unique.filter((stem) => {
      const known = this.frequencies.get(stem);
      return !known || Math.abs(known.counted - documents) > tolerance;
    });
    const counted = this.countDocuments(stale);
    for (const stem of stale) {
      this.frequencies.delete(stem);
      this.frequencies.set(stem, { documents: counted.get(stem) ?? 0, counted: documents });
    }
    // Map iteration order is insertion order: the oldest counts go first.
    for (const stem of this.frequencies.keys()) {
      if (this.frequencies.size <= CACHED_FREQUENCIES_MAX) break;
      this.frequencies.delete(stem);
    }
    return new Map(unique.flatMap((stem) => {
      const n = this.frequencies.get(stem)?.documents ?? 0;
      return n > 0 ? [[stem, n]] : [];
    }));
  }

  private countDocuments(stems: string[]): Map<string, number> {
    const frequencies = new Map<string, number>();
    if (stems.length) {
      const rows = this.db.prepare(`SELECT term, doc FROM text_index_terms WHERE term IN (${stems.map(() => '?').join(',')})`).all(...stems) as { term: string; doc: number }[];
      for (const r of rows) frequencies.set(r.term, r.doc);
    }
    return frequencies;
  }

  /** The query's terms, less the common ones in a large index (PRUNE_TERMS_MIN_DOCUMENTS); never none of them. */
  private withoutCommonTerms(terms: string[]): string[] {
    if (terms.length < 2) return terms;
    const documents = this.documentCount();
    if (documents < this.pruneTermsMinDocuments) return terms;
    const stems = terms.map(termStem);
    const frequencies = this.documentFrequencies(stems);
    const counted = terms.map((term, i) => ({ term, frequency: frequencies.get(stems[i]) ?? 0 }));
    const rare = counted.filter((t) => t.frequency <= documents * COMMON_TERM_SHARE);
    // Every term common: the rarest alone still finds the best of its matches.
    return (rare.length > 0 ? rare : [counted.reduce((best, t) => (t.frequency < best.frequency ? t : best))]).map((t) => t.term);
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

  /** Saves the graphs changed since their last save (a restart then loads them instead of building them). */
  async close(): Promise<void> {
    this.builds.clear();
    if (!this.db.open) return;
    for (const ws of this.unsaved) this.save(ws);
  }
}
