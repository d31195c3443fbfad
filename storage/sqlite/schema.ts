import type Database from 'better-sqlite3';
import { textScopeWord } from './text-scope.js';

/** Ordered migrations; PRAGMA user_version records how many have run. Never edit a shipped one. */
const migrations: string[] = [
  `
  CREATE TABLE workspaces (id TEXT PRIMARY KEY, slug TEXT NOT NULL UNIQUE, plan TEXT NOT NULL, created_at TEXT NOT NULL);
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, hash TEXT NOT NULL UNIQUE, scopes TEXT NOT NULL,
    agent_id TEXT, created_at TEXT NOT NULL, revoked_at TEXT);
  CREATE TABLE agents (workspace_id TEXT NOT NULL, agent_id TEXT NOT NULL, created_at TEXT NOT NULL, PRIMARY KEY (workspace_id, agent_id));
  CREATE TABLE memories (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT, agent_id TEXT, run_id TEXT,
    content TEXT NOT NULL, metadata TEXT NOT NULL, status TEXT NOT NULL, error TEXT,
    version INTEGER NOT NULL, seq INTEGER NOT NULL, reference_time TEXT,
    created_at TEXT NOT NULL, updated_at TEXT NOT NULL, deleted_at TEXT);
  CREATE INDEX memories_ws_created ON memories (workspace_id, created_at DESC, id DESC);
  CREATE INDEX memories_ws_user ON memories (workspace_id, user_id, created_at DESC);
  CREATE INDEX memories_ws_agent ON memories (workspace_id, agent_id, user_id);
  CREATE INDEX memories_processing ON memories (workspace_id, user_id, seq) WHERE status = 'processing';
  CREATE TABLE facts (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, user_id TEXT, agent_id TEXT, run_id TEXT,
    subject TEXT NOT NULL, subject_key TEXT NOT NULL, subject_type TEXT NOT NULL,
    predicate TEXT NOT NULL, predicate_raw TEXT NOT NULL, family TEXT NOT NULL,
    object TEXT NOT NULL, object_key TEXT NOT NULL, object_is_literal INTEGER NOT NULL,
    tense TEXT NOT NULL, confidence REAL NOT NULL, valid_from TEXT NOT NULL,
    invalid_at TEXT, invalidated_by TEXT, invalidated TEXT NOT NULL, confirmations TEXT NOT NULL,
    last_confirmed_at TEXT NOT NULL, source_memory_id TEXT, source_memory_ids TEXT NOT NULL,
    source_version INTEGER NOT NULL, seq INTEGER NOT NULL, created_at TEXT NOT NULL);
  CREATE INDEX facts_scope_live ON facts (workspace_id, user_id, subject_key, predicate) WHERE invalid_at IS NULL;
  CREATE INDEX facts_ws_order ON facts (workspace_id, valid_from DESC, seq DESC);
  CREATE INDEX facts_ws_source ON facts (workspace_id, source_memory_id);
  CREATE INDEX facts_ws_object ON facts (workspace_id, object_key);
  CREATE TABLE fact_sources (workspace_id TEXT NOT NULL, memory_ref TEXT NOT NULL, fact_id TEXT NOT NULL, PRIMARY KEY (workspace_id, memory_ref, fact_id));
  CREATE TABLE entities (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, agent_key TEXT NOT NULL, user_key TEXT NOT NULL,
    agent_id TEXT, user_id TEXT, canonical TEXT NOT NULL, name TEXT NOT NULL, type TEXT NOT NULL,
    aliases TEXT NOT NULL, memory_ids TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
    UNIQUE (workspace_id, agent_key, user_key, canonical));
  CREATE TABLE entity_links (workspace_id TEXT NOT NULL, memory_id TEXT NOT NULL, entity_id TEXT NOT NULL, PRIMARY KEY (workspace_id, memory_id, entity_id));
  CREATE TABLE history (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, workspace_id TEXT NOT NULL, memory_id TEXT NOT NULL,
    event TEXT NOT NULL, at TEXT NOT NULL, fact_id TEXT, fact TEXT);
  CREATE INDEX history_memory ON history (workspace_id, memory_id, at, seq);
  CREATE TABLE audit (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, ts TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL,
    result TEXT NOT NULL, user_id TEXT, target_id TEXT, meta TEXT NOT NULL);
  CREATE INDEX audit_ws_ts ON audit (workspace_id, ts DESC, id DESC);
  CREATE TABLE batches (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, status TEXT NOT NULL, received INTEGER NOT NULL,
    imported INTEGER NOT NULL, failed INTEGER NOT NULL, errors TEXT NOT NULL, memory_ids TEXT NOT NULL,
    created_at TEXT NOT NULL, completed_at TEXT);
  CREATE TABLE batch_items (batch_id TEXT NOT NULL, idx INTEGER NOT NULL, ok INTEGER NOT NULL, PRIMARY KEY (batch_id, idx));
  CREATE TABLE locks (key TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL);
  CREATE TABLE sequences (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  -- rate-limiter-flexible's RateLimiterSQLite layout, created here so it exists before the first request.
  CREATE TABLE usage_counters (key TEXT PRIMARY KEY, points INTEGER NOT NULL DEFAULT 0, expire INTEGER);
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY, queue TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0, run_after INTEGER NOT NULL, last_error TEXT,
    created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, order_key INTEGER NOT NULL);
  CREATE INDEX jobs_ready ON jobs (state, run_after, order_key);
  CREATE TABLE vectors (
    id TEXT PRIMARY KEY, workspace_id TEXT NOT NULL, agent_id TEXT, user_id TEXT, run_id TEXT,
    meta_terms TEXT NOT NULL, vec BLOB NOT NULL, rev INTEGER NOT NULL);
  CREATE INDEX vectors_rev ON vectors (rev);
  CREATE TABLE vector_tombstones (id TEXT NOT NULL, rev INTEGER NOT NULL);
  CREATE INDEX vector_tombstones_rev ON vector_tombstones (rev);
  `,
  // Read paths filtered by user: newest-first listings and facts ordered for context.
  `
  DROP INDEX memories_ws_user;
  CREATE INDEX memories_ws_user ON memories (workspace_id, user_id, created_at DESC, id DESC);
  CREATE INDEX facts_ws_user_order ON facts (workspace_id, user_id, valid_from DESC, seq DESC);
  `,
  // Keyword index for context. Contentless (no copy of the text) with contentless_delete and
  // secure-delete, so a deleted memory leaves none of its words in the index.
  `
  CREATE TABLE text_docs (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, workspace_id TEXT NOT NULL, agent_id TEXT, user_id TEXT, run_id TEXT,
    meta_terms TEXT NOT NULL);
  CREATE INDEX text_docs_scope ON text_docs (workspace_id, user_id);
  CREATE VIRTUAL TABLE text_index USING fts5(
    content, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
  INSERT INTO text_index (text_index, rank) VALUES ('secure-delete', 1);
  CREATE VIRTUAL TABLE text_index_terms USING fts5vocab(text_index, 'row');
  `,
  // Whether a fact's valid_from was stated in the text (0: it is only the time it was recorded).
  `
  ALTER TABLE facts ADD COLUMN valid_from_stated INTEGER NOT NULL DEFAULT 1;
  CREATE INDEX facts_ws_invalidated_by ON facts (workspace_id, invalidated_by);
  `,
  // Acknowledged writes not yet in their tables, one row per request (storage/sqlite/inbox.ts).
  `
  CREATE TABLE inbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, writes TEXT NOT NULL, expanded INTEGER NOT NULL DEFAULT 0);
  `,
  // The keyword index gains a `scope` column (textScopeWord: the user scope as a word), rebuilt from the memories.
  `
  DROP TABLE text_index_terms;
  DROP TABLE text_index;
  CREATE VIRTUAL TABLE text_index USING fts5(
    content, scope, content = '', contentless_delete = 1, tokenize = 'porter unicode61 remove_diacritics 2');
  INSERT INTO text_index (text_index, rank) VALUES ('secure-delete', 1);
  CREATE VIRTUAL TABLE text_index_terms USING fts5vocab(text_index, 'row');
  DELETE FROM text_docs WHERE NOT EXISTS (SELECT 1 FROM memories m WHERE m.id = text_docs.id AND m.workspace_id = text_docs.workspace_id);
  INSERT INTO text_index (rowid, content, scope)
    SELECT d.rowid, m.content, text_scope_word(d.workspace_id, d.user_id)
    FROM text_docs d JOIN memories m ON m.id = d.id AND m.workspace_id = d.workspace_id ORDER BY d.rowid;
  `,
];

/** The schema version this code migrates to (PRAGMA user_version of an up-to-date database). */
export const SCHEMA_VERSION = migrations.length;

/**
 * Indexes for hot paths, created if missing at every open (idempotent, so they need no
 * migration number of their own).
 */
const hotPathIndexes = `
  -- The embedded runner claims each lane's jobs in arrival order: walking this index stops at the first ready job.
  CREATE INDEX IF NOT EXISTS jobs_order ON jobs (order_key);
  CREATE INDEX IF NOT EXISTS jobs_lane_order ON jobs (lane, order_key);
  -- Contradiction candidates: the live facts of one subject and predicate in one user scope, whatever the user's history.
  CREATE INDEX IF NOT EXISTS facts_live_candidates ON facts (workspace_id, user_id, agent_id, subject_key, predicate, valid_from, seq)
    WHERE invalid_at IS NULL;
  -- The turns around a context hit: a scope's ready memories in write order.
  CREATE INDEX IF NOT EXISTS memories_scope_ready_seq ON memories (workspace_id, agent_id, user_id, seq) WHERE status = 'ready';
  -- Whether an entity still has a memory (every commit unlinks and relinks its memory's entities).
  CREATE INDEX IF NOT EXISTS entity_links_entity ON entity_links (entity_id, memory_id);
  -- One workspace's vectors in write order, without reading the vectors (they overflow their pages): a graph
  -- catching up from its snapshot, or being filled, and the row count per workspace at start-up.
  CREATE INDEX IF NOT EXISTS vectors_ws_rev ON vectors (workspace_id, rev);
`;

/** Runs the migrations not yet run (`upTo`: only as far as that version, to build an older database in a test). */
export function migrate(db: Database.Database, upTo = migrations.length): void {
  const version = () => db.pragma('user_version', { simple: true }) as number;
  db.function('text_scope_word', { deterministic: true }, (workspaceId: unknown, userId: unknown) => textScopeWord(String(workspaceId), userId === null ? null : String(userId)));
  for (let i = version(); i < upTo; i++) {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    db.transaction(() => {
      if (version() > i) return;
      db.exec(migrations[i]);
      db.pragma(`user_version = ${i + 1}`);
    }).immediate();
  }
  ensureJobLanes(db);
  db.exec(hotPathIndexes);
}

/**
 * The embedded runner's lanes: each job records a hash of its user scope, and the lane
 * (the pipeline thread) that serves it, so a scope's writes stay on one thread in order.
 */
function ensureJobLanes(db: Database.Database): void {
  const columns = (db.pragma('table_info(jobs)') as { name: string }[]).map((c) => c.name);
  if (columns.includes('lane')) return;
  db.transaction(() => {
    const again = (db.pragma('table_info(jobs)') as { name: string }[]).map((c) => c.name);
    if (again.includes('lane')) return;
    db.exec(`ALTER TABLE jobs ADD COLUMN scope_hash INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE jobs ADD COLUMN lane INTEGER NOT NULL DEFAULT 0;`);
  }).immediate();
}
