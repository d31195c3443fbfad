import type Database from 'better-sqlite3';
import type { MemoryFilter, MemoryRecord, MemoryRepository, MemoryVersionSummary, Page, Paged, ScopeSummary, UserScope } from '../types.js';
import { Where, json, parse } from './sql.js';

interface MemoryRow {
  id: string;
  workspace_id: string;
  user_id: string | null;
  agent_id: string | null;
  run_id: string | null;
  content: string;
  metadata: string;
  status: MemoryRecord['status'];
  error: string | null;
  version: number;
  seq: number;
  reference_time: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export const toRecord = (r: MemoryRow): MemoryRecord => ({
  id: r.id,
  workspaceId: r.workspace_id,
  userId: r.user_id,
  agentId: r.agent_id,
  runId: r.run_id,
  content: r.content,
  metadata: parse(r.metadata),
  status: r.status,
  error: r.error,
  version: r.version,
  seq: r.seq,
  referenceTime: r.reference_time,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  deletedAt: r.deleted_at,
});

const columnOf: Record<string, string> = {
  content: 'content',
  status: 'status',
  error: 'error',
  version: 'version',
  seq: 'seq',
  updatedAt: 'updated_at',
  deletedAt: 'deleted_at',
};

type SummaryRow = { id: string; deleted_at: string | null; version: number };
const toSummaries = (rows: SummaryRow[]): MemoryVersionSummary[] => rows.map((r) => ({ id: r.id, version: r.version, active: r.deleted_at === null }));

function where(filter: MemoryFilter): Where {
  const w = new Where().eq('workspace_id', filter.workspaceId);
  w.maybe('user_id', filter.userId).maybe('agent_id', filter.agentId).maybe('run_id', filter.runId).maybe('status', filter.status);
  if (filter.ids) w.in('id', filter.ids);
  if (!filter.includeForgotten) w.raw('deleted_at IS NULL');
  return w;
}

export class SqliteMemoryRepository implements MemoryRepository {
  constructor(private readonly db: Database.Database) {}

  async insert(m: MemoryRecord): Promise<void> {
    this.insertRow(m);
  }

  /** Synchronous, in the caller's transaction (the embedded queue accepts a write in one). */
  insertRow(m: MemoryRecord): void {
    this.db
      .prepare(
        `INSERT INTO memories (id, workspace_id, user_id, agent_id, run_id, content, metadata, status, error, version, seq,
          reference_time, created_at, updated_at, deleted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
      )
      .run(m.id, m.workspaceId, m.userId, m.agentId, m.runId, m.content, json(m.metadata), m.status, m.error, m.version, m.seq,
        m.referenceTime, m.createdAt, m.updatedAt, m.deletedAt);
  }

  async insertMany(memories: MemoryRecord[]): Promise<void> {
    this.db.transaction(() => {
      for (const m of memories) this.insertRow(m);
    }).immediate();
  }

  async get(workspaceId: string, id: string): Promise<MemoryRecord | null> {
    const row = this.db.prepare('SELECT * FROM memories WHERE workspace_id = ? AND id = ?').get(workspaceId, id) as MemoryRow | undefined;
    return row ? toRecord(row) : null;
  }

  async getMany(workspaceId: string, ids: string[]): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    // By primary key only: with workspace_id in the WHERE clause SQLite prefers the workspace index and scans it.
    const w = new Where().in('id', ids);
    const rows = this.db.prepare(`SELECT * FROM memories ${w.sql}`).all(...w.params) as MemoryRow[];
    return rows.filter((r) => r.workspace_id === workspaceId).map(toRecord);
  }

  async neighbours(workspaceId: string, memories: MemoryRecord[]): Promise<MemoryRecord[][]> {
    return memories.map((m) => {
      if (m.workspaceId !== workspaceId) return [];
      return (['<', '>'] as const).flatMap((op) => {
        const w = new Where()
          .eq('workspace_id', workspaceId)
          .eq('agent_id', m.agentId)
          .eq('user_id', m.userId)
          .raw(`status = 'ready'`)
          .raw(`seq ${op} ?`, m.seq)
          .raw('deleted_at IS NULL');
        const order = op === '<' ? 'DESC' : 'ASC';
        const row = this.db.prepare(`SELECT * FROM memories INDEXED BY memories_scope_ready_seq ${w.sql} ORDER BY seq ${order} LIMIT 1`).get(...w.params) as MemoryRow | undefined;
        return row ? [toRecord(row)] : [];
      });
    });
  }

  async list(filter: MemoryFilter, page: Page): Promise<Paged<MemoryRecord>> {
    const w = where(filter);
    const rows = this.db
      .prepare(`SELECT * FROM memories ${w.sql} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...w.params, page.limit, page.offset) as MemoryRow[];
    return { items: rows.map(toRecord), total: await this.count(filter) };
  }

  async count(filter: MemoryFilter): Promise<number> {
    const w = where(filter);
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM memories ${w.sql}`).get(...w.params) as { n: number }).n;
  }

  async update(workspaceId: string, id: string, patch: Partial<MemoryRecord>, expectVersion?: number): Promise<MemoryRecord | null> {
    const sets: string[] = [];
    const params: unknown[] = [];
    for (const [key, value] of Object.entries(patch)) {
      const column = columnOf[key];
      if (!column || value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(value);
    }
    if (sets.length === 0) return this.get(workspaceId, id);
    const w = new Where().eq('workspace_id', workspaceId).eq('id', id).raw('deleted_at IS NULL');
    if (expectVersion !== undefined) w.eq('version', expectVersion);
    const row = this.db
      .prepare(`UPDATE memories SET ${sets.join(', ')} ${w.sql} RETURNING *`)
      .get(...params, ...w.params) as MemoryRow | undefined;
    return row ? toRecord(row) : null;
  }

  async forget(workspaceId: string, id: string, at: string): Promise<MemoryRecord | null> {
    const row = this.db
      .prepare(
        `UPDATE memories SET content = '', metadata = '{}', deleted_at = ?, status = 'ready', error = NULL
         WHERE workspace_id = ? AND id = ? AND deleted_at IS NULL RETURNING *`,
      )
      .get(at, workspaceId, id) as MemoryRow | undefined;
    return row ? toRecord(row) : null;
  }

  async versions(filter: MemoryFilter): Promise<MemoryVersionSummary[]> {
    const w = where(filter);
    return toSummaries(this.db.prepare(`SELECT id, deleted_at, version FROM memories ${w.sql}`).all(...w.params) as SummaryRow[]);
  }

  async purge(filter: MemoryFilter): Promise<MemoryVersionSummary[]> {
    const w = where({ ...filter, includeForgotten: true });
    return toSummaries(this.db.prepare(`DELETE FROM memories ${w.sql} RETURNING id, deleted_at, version`).all(...w.params) as SummaryRow[]);
  }

  async pendingBefore(scope: UserScope, seq: number, since: string): Promise<boolean> {
    const w = new Where()
      .eq('workspace_id', scope.workspaceId)
      .eq('agent_id', scope.agentId)
      .eq('user_id', scope.userId)
      // A literal, so the partial index of processing writes serves this: its cost does not grow with the user's history.
      .raw(`status = 'processing'`)
      .raw('deleted_at IS NULL')
      .raw('seq < ?', seq)
      .raw('updated_at > ?', since);
    // Named, not left to the planner: statistics gathered while the table was nearly empty (the
    // first write of a new database) make it scan every memory instead, on every check.
    return !!this.db.prepare(`SELECT 1 FROM memories INDEXED BY memories_processing ${w.sql} LIMIT 1`).get(...w.params);
  }

  async summarizeByUser(workspaceId: string, agentId: string | null | undefined, page: Page): Promise<Paged<ScopeSummary>> {
    const w = new Where().eq('workspace_id', workspaceId).raw('deleted_at IS NULL').raw('user_id IS NOT NULL').maybe('agent_id', agentId);
    const rows = this.db
      .prepare(
        `SELECT user_id AS key, COUNT(*) AS memories, MAX(updated_at) AS lastActive FROM memories ${w.sql}
         GROUP BY user_id ORDER BY lastActive DESC, user_id ASC LIMIT ? OFFSET ?`,
      )
      .all(...w.params, page.limit, page.offset) as ScopeSummary[];
    const total = (this.db.prepare(`SELECT COUNT(DISTINCT user_id) AS n FROM memories ${w.sql}`).get(...w.params) as { n: number }).n;
    return { items: rows, total };
  }

  async summarizeByAgent(workspaceId: string, agentIds: string[]): Promise<ScopeSummary[]> {
    const w = new Where().eq('workspace_id', workspaceId).raw('deleted_at IS NULL').in('agent_id', agentIds);
    return this.db
      .prepare(`SELECT agent_id AS key, COUNT(*) AS memories, MAX(updated_at) AS lastActive FROM memories ${w.sql} GROUP BY agent_id`)
      .all(...w.params) as ScopeSummary[];
  }
}
