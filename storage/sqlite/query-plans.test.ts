import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './store.js';

/**
 * The write path's per-write lookups must cost the same whatever a user's history:
 * each is answered from an index (SEARCH … USING INDEX), never by scanning a table
 * or sorting every matching row.
 */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function database(): Database.Database {
  const dir = mkdtempSync(join(tmpdir(), 'engram-plans-'));
  dirs.push(dir);
  return openDatabase(dir);
}
/** A new database after its first write: a connection opened then analyses tables of one row, and every connection plans with that. */
function analysedWhileNearlyEmpty(): Database.Database {
  const db = database();
  db.prepare(
    `INSERT INTO memories (id, workspace_id, user_id, agent_id, run_id, content, metadata, status, error, version, seq, created_at, updated_at)
     VALUES ('m1', 'w', 'u', NULL, NULL, 'x', '{}', 'processing', NULL, 1, 1, 't', 't')`,
  ).run();
  db.prepare(`INSERT INTO jobs (id, queue, payload, state, attempts, run_after, created_at, updated_at, order_key) VALUES ('j1', 'write', '{}', 'running', 1, 0, 0, 0, 1)`).run();
  db.pragma('optimize = 0x10002');
  return db;
}
const databases = { 'a new database': database(), 'statistics from a nearly empty database': analysedWhileNearlyEmpty() };

const plan = (db: Database.Database, sql: string, ...params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail).join('\n');

describe.each(Object.entries(databases))('write-path query plans (SQLite), %s', (_state, db) => {
  it.each([
    [
      'arrival-order check (pendingBefore)',
      `SELECT 1 FROM memories INDEXED BY memories_processing WHERE workspace_id = ? AND agent_id IS NULL AND user_id = ? AND status = 'processing' AND deleted_at IS NULL AND seq < ? AND updated_at > ? LIMIT 1`,
      'memories_processing',
    ],
    [
      'contradiction candidates (findLive)',
      `SELECT * FROM facts WHERE workspace_id = ? AND user_id = ? AND agent_id IS NULL AND subject_key = ? AND predicate IN (?, ?) AND invalid_at IS NULL`,
      'facts_live_candidates',
    ],
    ['entity resolution by key', 'SELECT id, aliases FROM entities WHERE workspace_id = ? AND agent_key = ? AND user_key = ? AND canonical = ?', 'sqlite_autoindex_entities'],
    ['whether an entity still has a memory', 'SELECT 1 FROM entity_links WHERE entity_id = ? LIMIT 1', 'entity_links_entity'],
    [
      'the runner claiming the oldest ready job of a lane',
      `SELECT id FROM jobs INDEXED BY jobs_lane_order WHERE lane = ? AND state IN ('pending', 'running') AND run_after <= ? ORDER BY order_key LIMIT 1`,
      'jobs_lane_order',
    ],
    ['the next job order key', 'SELECT COALESCE(MAX(order_key), 0) + 1 FROM jobs', 'jobs_order'],
  ])('%s uses an index', (_name, sql, index) => {
    const detail = plan(db, sql, ...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x'));
    expect(detail).toContain(index);
    expect(detail).not.toMatch(/SCAN (memories|facts|entities|entity_links)\b(?! USING)/);
    expect(detail).not.toContain('USE TEMP B-TREE');
  });
});

describe.each(Object.entries(databases))('embedded vector index query plans (SQLite), %s', (_state, db) => {
  it.each([
    ['a workspace export page, by id', 'SELECT id, vec FROM vectors WHERE +workspace_id = ? AND id > ? ORDER BY id LIMIT 500', 'sqlite_autoindex_vectors_1'],
    [
      "a graph's float rows, by id",
      'SELECT v.id AS id, v.vec AS vec FROM json_each(?) i CROSS JOIN vectors v ON v.id = i.value WHERE v.workspace_id = ?',
      'sqlite_autoindex_vectors_1',
    ],
    ["a workspace's rows after a revision (graph build and catch-up)", 'SELECT * FROM vectors WHERE workspace_id = ? AND rev > ? ORDER BY rev LIMIT ?', 'vectors_ws_rev'],
    ['rows per workspace at start-up', 'SELECT workspace_id, count(*) AS n FROM vectors GROUP BY workspace_id', 'vectors_ws_rev'],
  ])('%s uses an index', (_name, sql, index) => {
    const detail = plan(db, sql, ...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 'x'));
    expect(detail).toContain(index);
    expect(detail).not.toContain('USE TEMP B-TREE');
  });
});
