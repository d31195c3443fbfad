import type Database from 'better-sqlite3';
import type { ContextFact, FactFilter, FactRecord, FactRepository, MemoryVersionRef, Page, Paged, UserScope } from '../types.js';

const refOf = (s: MemoryVersionRef) => `${s.memoryId}@${s.version}`;
import { Where, json, parse } from './sql.js';

interface FactRow {
  id: string;
  workspace_id: string;
  user_id: string | null;
  agent_id: string | null;
  run_id: string | null;
  subject: string;
  subject_key: string;
  subject_type: FactRecord['subjectType'];
  predicate: string;
  predicate_raw: string;
  family: FactRecord['family'];
  object: string;
  object_key: string;
  object_is_literal: number;
  tense: FactRecord['tense'];
  confidence: number;
  valid_from: string;
  valid_from_stated: number;
  invalid_at: string | null;
  invalidated_by: string | null;
  invalidated: string;
  confirmations: string;
  last_confirmed_at: string;
  source_memory_id: string | null;
  source_memory_ids: string;
  source_version: number;
  seq: number;
  created_at: string;
}

export const toRecord = (r: FactRow): FactRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  agentId: r.agent_id,
  runId: r.run_id,
  subject: r.subject,
  subjectKey: r.subject_key,
  subjectType: r.subject_type,
  predicate: r.predicate,
  predicateRaw: r.predicate_raw,
  family: r.family,
  object: r.object,
  objectKey: r.object_key,
  objectIsLiteral: r.object_is_literal === 1,
  tense: r.tense,
  confidence: r.confidence,
  validFrom: r.valid_from,
  validFromStated: r.valid_from_stated !== 0,
  invalidAt: r.invalid_at,
  invalidatedBy: r.invalidated_by,
  invalidated: parse(r.invalidated),
  confirmations: parse(r.confirmations),
  lastConfirmedAt: r.last_confirmed_at,
  sourceMemoryId: r.source_memory_id,
  sourceMemoryIds: parse(r.source_memory_ids),
  sourceVersion: r.source_version,
  seq: r.seq,
  createdAt: r.created_at,
});

function where(f: FactFilter): Where {
  const w = new Where().eq('workspace_id', f.workspaceId);
  w.maybe('user_id', f.userId).maybe('agent_id', f.agentId).maybe('run_id', f.runId);
  w.maybe('subject_key', f.subjectKey).maybe('predicate', f.predicate).maybe('family', f.family).maybe('source_memory_id', f.sourceMemoryId);
  if (f.entity !== undefined) {
    const { subjectKeys: s, objectKeys: o } = f.entity;
    w.raw(`(subject_key IN (${s.map(() => '?').join(',') || 'NULL'}) OR object_key IN (${o.map(() => '?').join(',') || 'NULL'}))`, ...s, ...o);
  }
  if (f.ids) w.in('id', f.ids);
  if (f.asOf !== undefined) {
    w.raw('valid_from <= ?', f.asOf).raw('(invalid_at IS NULL OR invalid_at > ?)', f.asOf);
  } else if (!f.includeInvalidated) {
    w.raw('invalid_at IS NULL');
  }
  return w;
}

export class SqliteFactRepository implements FactRepository {
  constructor(private readonly db: Database.Database) {}

  async insert(f: FactRecord): Promise<boolean> {
    return this.db.transaction(() => {
      const inserted = this.insertRow(f);
      if (inserted && f.sourceMemoryId) this.link(f.workspaceId, { memoryId: f.sourceMemoryId, version: f.sourceVersion }, f.id);
      return inserted;
    }).immediate();
  }

  private link(workspaceId: string, source: MemoryVersionRef, factId: string): void {
    this.db.prepare('INSERT OR IGNORE INTO fact_sources (workspace_id, memory_ref, fact_id) VALUES (?,?,?)').run(workspaceId, refOf(source), factId);
  }

  async listForMemory(workspaceId: string, source: MemoryVersionRef): Promise<FactRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT f.* FROM fact_sources s JOIN facts f ON f.id = s.fact_id
         WHERE s.workspace_id = ? AND s.memory_ref = ? AND f.invalid_at IS NULL ORDER BY f.seq, f.id`,
      )
      .all(workspaceId, refOf(source)) as FactRow[];
    return rows.map(toRecord);
  }

  private insertRow(f: FactRecord): boolean {
    const info = this.db
      .prepare(
        `INSERT OR IGNORE INTO facts (id, workspace_id, user_id, agent_id, run_id, subject, subject_key, subject_type, predicate,
          predicate_raw, family, object, object_key, object_is_literal, tense, confidence, valid_from, invalid_at, invalidated_by,
          invalidated, confirmations, last_confirmed_at, source_memory_id, source_memory_ids, source_version, seq, created_at, valid_from_stated)
         VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      )
      .run(f.id, f.workspaceId, f.userId, f.agentId, f.runId, f.subject, f.subjectKey, f.subjectType, f.predicate, f.predicateRaw,
        f.family, f.object, f.objectKey, f.objectIsLiteral ? 1 : 0, f.tense, f.confidence, f.validFrom, f.invalidAt, f.invalidatedBy,
        json(f.invalidated), json(f.confirmations), f.lastConfirmedAt, f.sourceMemoryId, json(f.sourceMemoryIds), f.sourceVersion,
        f.seq, f.createdAt, f.validFromStated === false ? 0 : 1);
    return info.changes === 1;
  }

  async get(workspaceId: string, id: string): Promise<FactRecord | null> {
    const row = this.db.prepare('SELECT * FROM facts WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as FactRow | undefined;
    return row ? toRecord(row) : null;
  }

  async query(filter: FactFilter, page: Page, options: { countTotal?: boolean } = {}): Promise<Paged<FactRecord>> {
    const w = where(filter);
    const rows = this.db
      .prepare(`SELECT * FROM facts ${w.sql} ORDER BY valid_from DESC, seq DESC, id ASC LIMIT ? OFFSET ?`)
      .all(...w.params, page.limit, page.offset) as FactRow[];
    if (options.countTotal === false) return { items: rows.map(toRecord), total: -1 };
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM facts ${w.sql}`).get(...w.params) as { n: number }).n;
    return { items: rows.map(toRecord), total };
  }

  async listForContext(filter: FactFilter, limit: number): Promise<ContextFact[]> {
    const w = where(filter);
    const rows = this.db
      .prepare(
        `SELECT id, subject, subject_key, predicate, predicate_raw, family, object, object_key, valid_from, source_memory_ids FROM facts ${w.sql}
         ORDER BY valid_from DESC, seq DESC, id ASC LIMIT ?`,
      )
      .all(...w.params, limit) as Pick<FactRow, 'id' | 'subject' | 'subject_key' | 'predicate' | 'predicate_raw' | 'family' | 'object' | 'object_key' | 'valid_from' | 'source_memory_ids'>[];
    return rows.map((r) => ({
      id: r.id,
      subject: r.subject,
      subjectKey: r.subject_key,
      predicate: r.predicate,
      predicateRaw: r.predicate_raw,
      family: r.family,
      object: r.object,
      objectKey: r.object_key,
      validFrom: r.valid_from,
      sourceMemoryIds: parse(r.source_memory_ids),
    }));
  }

  async findLive(scope: UserScope, subjectKey: string, predicates: string[], openAt?: string): Promise<FactRecord[]> {
    const candidates = (live: boolean) =>
      new Where()
        .eq('workspace_id', scope.workspaceId)
        .eq('user_id', scope.userId)
        .eq('agent_id', scope.agentId)
        .eq('subject_key', subjectKey)
        .in('predicate', predicates)
        .raw(live ? 'invalid_at IS NULL' : 'invalid_at > ?', ...(live ? [] : [openAt]));
    // Live facts come straight from the partial index facts_live_candidates; facts whose end lies after
    // `openAt` (a plan will end them) are few. Sorted here rather than in SQL: an ORDER BY tempts the
    // planner into walking every fact of the user in date order.
    const live = candidates(true);
    const rows = this.db.prepare(`SELECT * FROM facts ${live.sql}`).all(...live.params) as FactRow[];
    if (openAt !== undefined) {
      const ending = candidates(false);
      rows.push(...(this.db.prepare(`SELECT * FROM facts ${ending.sql}`).all(...ending.params) as FactRow[]));
    }
    rows.sort((a, b) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : a.seq - b.seq));
    return rows.map(toRecord);
  }

  async invalidate(workspaceId: string, ids: string[], at: string, by: string): Promise<number> {
    if (ids.length === 0) return 0;
    const w = new Where().eq('workspace_id', workspaceId).in('id', ids).raw('(invalid_at IS NULL OR invalid_at > ?)', at);
    return this.db.prepare(`UPDATE facts SET invalid_at = ?, invalidated_by = ? ${w.sql}`).run(at, by, ...w.params).changes;
  }

  async reopen(workspaceId: string, by: string): Promise<string[]> {
    const rows = this.db
      .prepare('UPDATE facts SET invalid_at = NULL, invalidated_by = NULL WHERE workspace_id = ? AND invalidated_by = ? RETURNING id')
      .all(workspaceId, by) as { id: string }[];
    return rows.map((r) => r.id).sort();
  }

  async confirm(workspaceId: string, id: string, token: string, source: MemoryVersionRef | null, at: string): Promise<FactRecord | null> {
    const memoryId = source?.memoryId ?? null;
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM facts WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as FactRow | undefined;
      if (!row) return null;
      const fact = toRecord(row);
      if (!fact.confirmations.includes(token)) {
        fact.confirmations.push(token);
        if (memoryId && !fact.sourceMemoryIds.includes(memoryId)) fact.sourceMemoryIds.push(memoryId);
        if (at > fact.lastConfirmedAt) fact.lastConfirmedAt = at;
        this.db
          .prepare('UPDATE facts SET confirmations = ?, source_memory_ids = ?, last_confirmed_at = ? WHERE id = ?')
          .run(json(fact.confirmations), json(fact.sourceMemoryIds), fact.lastConfirmedAt, id);
      }
      if (source) this.link(workspaceId, source, id);
      return fact;
    }).immediate();
  }

  async setInvalidated(workspaceId: string, id: string, invalidated: string[]): Promise<void> {
    this.db.prepare('UPDATE facts SET invalidated = ? WHERE workspace_id = ? AND id = ?').run(json(invalidated), workspaceId, id);
  }

  async purge(filter: FactFilter): Promise<{ id: string; live: boolean }[]> {
    const w = where({ ...filter, includeInvalidated: true, asOf: undefined });
    const rows = this.db.transaction(() => {
      const deleted = this.db.prepare(`DELETE FROM facts ${w.sql} RETURNING id, invalid_at`).all(...w.params) as {
        id: string;
        invalid_at: string | null;
      }[];
      const unlink = this.db.prepare('DELETE FROM fact_sources WHERE workspace_id = ? AND fact_id = ?');
      for (const r of deleted) unlink.run(filter.workspaceId, r.id);
      return deleted;
    }).immediate();
    return rows.map((r) => ({ id: r.id, live: r.invalid_at === null }));
  }

  async countLive(filter: FactFilter): Promise<number> {
    const w = where({ ...filter, includeInvalidated: false, asOf: undefined });
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM facts ${w.sql}`).get(...w.params) as { n: number }).n;
  }

  async countLiveByUser(workspaceId: string, agentId: string | null | undefined, userIds: string[]): Promise<Map<string, number>> {
    const w = new Where().eq('workspace_id', workspaceId).maybe('agent_id', agentId).in('user_id', userIds).raw('invalid_at IS NULL');
    const rows = this.db.prepare(`SELECT user_id AS k, COUNT(*) AS n FROM facts ${w.sql} GROUP BY user_id`).all(...w.params) as {
      k: string;
      n: number;
    }[];
    return new Map(rows.map((r) => [r.k, r.n]));
  }

  async countLiveByAgent(workspaceId: string, agentIds: string[]): Promise<Map<string, number>> {
    const w = new Where().eq('workspace_id', workspaceId).in('agent_id', agentIds).raw('invalid_at IS NULL');
    const rows = this.db.prepare(`SELECT agent_id AS k, COUNT(*) AS n FROM facts ${w.sql} GROUP BY agent_id`).all(...w.params) as {
      k: string;
      n: number;
    }[];
    return new Map(rows.map((r) => [r.k, r.n]));
  }
}
