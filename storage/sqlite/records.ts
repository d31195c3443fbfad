import type Database from 'better-sqlite3';
import type {
  AgentRecord,
  AgentRegistration,
  AgentRepository,
  ApiKeyRecord,
  ApiKeyRepository,
  AuditFilter,
  AuditRecord,
  AuditRepository,
  BatchItemError,
  BatchRecord,
  BatchRepository,
  HistoryEventRecord,
  HistoryRepository,
  LockRepository,
  Page,
  Paged,
  Plan,
  SequenceRepository,
  WorkspaceRecord,
  WorkspaceRepository,
} from '../types.js';
import { Where, json, parse } from './sql.js';
import { inWriteTransaction } from './write-lock.js';

export class SqliteWorkspaceRepository implements WorkspaceRepository {
  constructor(private readonly db: Database.Database) {}
  private map = (r: any): WorkspaceRecord => ({ id: r.id, slug: r.slug, plan: r.plan, createdAt: r.created_at });

  async insert(w: WorkspaceRecord): Promise<void> {
    this.db.prepare('INSERT INTO workspaces (id, slug, plan, created_at) VALUES (?,?,?,?)').run(w.id, w.slug, w.plan, w.createdAt);
  }
  async get(id: string) {
    const r = this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id);
    return r ? this.map(r) : null;
  }
  async getBySlug(slug: string) {
    const r = this.db.prepare('SELECT * FROM workspaces WHERE slug = ?').get(slug);
    return r ? this.map(r) : null;
  }
  async list() {
    return this.db.prepare('SELECT * FROM workspaces ORDER BY created_at, id').all().map(this.map);
  }
  async setPlan(id: string, plan: Plan) {
    this.db.prepare('UPDATE workspaces SET plan = ? WHERE id = ?').run(plan, id);
  }
}

export class SqliteApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly db: Database.Database) {}
  private map = (r: any): ApiKeyRecord => ({
    id: r.id,
    workspaceId: r.workspace_id,
    hash: r.hash,
    scopes: parse(r.scopes),
    agentId: r.agent_id,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
  });

  async insert(k: ApiKeyRecord) {
    this.db
      .prepare('INSERT INTO api_keys (id, workspace_id, hash, scopes, agent_id, created_at, revoked_at) VALUES (?,?,?,?,?,?,?)')
      .run(k.id, k.workspaceId, k.hash, json(k.scopes), k.agentId, k.createdAt, k.revokedAt);
  }
  async getByHash(hash: string) {
    const r = this.db.prepare('SELECT * FROM api_keys WHERE hash = ?').get(hash);
    return r ? this.map(r) : null;
  }
  async get(id: string) {
    const r = this.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id);
    return r ? this.map(r) : null;
  }
  async list() {
    return this.db.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all().map(this.map);
  }
  async revoke(id: string, at: string) {
    return this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id).changes === 1;
  }
  async count() {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
  }
}

export class SqliteAgentRepository implements AgentRepository {
  constructor(private readonly db: Database.Database) {}

  async register(workspaceId: string, agentId: string, cap: number, at: string): Promise<AgentRegistration> {
    return this.db.transaction((): AgentRegistration => {
      if (this.db.prepare('SELECT 1 FROM agents WHERE workspace_id = ? AND agent_id = ?').get(workspaceId, agentId)) return 'exists';
      const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM agents WHERE workspace_id = ?').get(workspaceId) as { n: number };
      if (n >= cap) return 'cap_exceeded';
      this.db.prepare('INSERT INTO agents (workspace_id, agent_id, created_at) VALUES (?,?,?)').run(workspaceId, agentId, at);
      return 'created';
    }).immediate();
  }
  async exists(workspaceId: string, agentId: string) {
    return !!this.db.prepare('SELECT 1 FROM agents WHERE workspace_id = ? AND agent_id = ?').get(workspaceId, agentId);
  }
  async count(workspaceId: string) {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM agents WHERE workspace_id = ?').get(workspaceId) as { n: number }).n;
  }
  async list(workspaceId: string, page: Page): Promise<Paged<AgentRecord>> {
    const rows = this.db
      .prepare('SELECT * FROM agents WHERE workspace_id = ? ORDER BY created_at, agent_id LIMIT ? OFFSET ?')
      .all(workspaceId, page.limit, page.offset) as any[];
    return {
      items: rows.map((r) => ({ workspaceId: r.workspace_id, agentId: r.agent_id, createdAt: r.created_at })),
      total: await this.count(workspaceId),
    };
  }
  async remove(workspaceId: string, agentId: string) {
    return this.db.prepare('DELETE FROM agents WHERE workspace_id = ? AND agent_id = ?').run(workspaceId, agentId).changes === 1;
  }
}

export class SqliteHistoryRepository implements HistoryRepository {
  constructor(private readonly db: Database.Database) {}

  async append(events: HistoryEventRecord[]) {
    this.db.transaction(() => this.appendRows(events))();
  }
  /** Synchronous, in the caller's transaction. */
  appendRows(events: HistoryEventRecord[]): void {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO history (id, workspace_id, memory_id, event, at, fact_id, fact) VALUES (?,?,?,?,?,?,?)',
    );
    for (const e of events) insert.run(e.id, e.workspaceId, e.memoryId, e.event, e.at, e.factId, e.fact);
  }
  async list(workspaceId: string, memoryId: string): Promise<HistoryEventRecord[]> {
    const rows = this.db
      .prepare('SELECT * FROM history WHERE workspace_id = ? AND memory_id = ? ORDER BY at, seq')
      .all(workspaceId, memoryId) as any[];
    return rows.map((r) => ({
      id: r.id,
      workspaceId: r.workspace_id,
      memoryId: r.memory_id,
      event: r.event,
      at: r.at,
      factId: r.fact_id,
      fact: r.fact,
    }));
  }
  async purgeMemories(workspaceId: string, memoryIds: string[]) {
    const w = new Where().eq('workspace_id', workspaceId).in('memory_id', memoryIds);
    this.db.prepare(`DELETE FROM history ${w.sql}`).run(...w.params);
  }
  async remove(workspaceId: string, ids: string[]) {
    const w = new Where().eq('workspace_id', workspaceId).in('id', ids);
    this.db.prepare(`DELETE FROM history ${w.sql}`).run(...w.params);
  }
}

export class SqliteAuditRepository implements AuditRepository {
  constructor(private readonly db: Database.Database) {}

  async append(a: AuditRecord) {
    this.db
      .prepare('INSERT INTO audit (id, workspace_id, ts, actor, action, result, user_id, target_id, meta) VALUES (?,?,?,?,?,?,?,?,?)')
      .run(a.id, a.workspaceId, a.ts, a.actor, a.action, a.result, a.userId, a.targetId, json(a.meta));
  }
  async list(filter: AuditFilter, page: Page): Promise<Paged<AuditRecord>> {
    const w = new Where().eq('workspace_id', filter.workspaceId).maybe('user_id', filter.userId).maybe('action', filter.action);
    if (filter.since) w.raw('ts >= ?', filter.since);
    if (filter.until) w.raw('ts <= ?', filter.until);
    const rows = this.db
      .prepare(`SELECT * FROM audit ${w.sql} ORDER BY ts DESC, id DESC LIMIT ? OFFSET ?`)
      .all(...w.params, page.limit, page.offset) as any[];
    const total = (this.db.prepare(`SELECT COUNT(*) AS n FROM audit ${w.sql}`).get(...w.params) as { n: number }).n;
    return {
      items: rows.map((r) => ({
        id: r.id,
        workspaceId: r.workspace_id,
        ts: r.ts,
        actor: r.actor,
        action: r.action,
        result: r.result,
        userId: r.user_id,
        targetId: r.target_id,
        meta: parse(r.meta),
      })),
      total,
    };
  }
}

export class SqliteBatchRepository implements BatchRepository {
  constructor(private readonly db: Database.Database) {}
  private map = (r: any): BatchRecord => ({
    id: r.id,
    workspaceId: r.workspace_id,
    status: r.status,
    received: r.received,
    imported: r.imported,
    failed: r.failed,
    errors: parse(r.errors),
    memoryIds: parse(r.memory_ids),
    createdAt: r.created_at,
    completedAt: r.completed_at,
  });

  async insert(b: BatchRecord) {
    this.insertRow(b);
  }
  /** Synchronous, in the caller's transaction. */
  insertRow(b: BatchRecord): void {
    this.db
      .prepare(
        `INSERT INTO batches (id, workspace_id, status, received, imported, failed, errors, memory_ids, created_at, completed_at)
         VALUES (?,?,?,?,?,?,?,?,?,?)`,
      )
      .run(b.id, b.workspaceId, b.status, b.received, b.imported, b.failed, json(b.errors), json(b.memoryIds), b.createdAt, b.completedAt);
  }
  async get(workspaceId: string, id: string) {
    const r = this.db.prepare('SELECT * FROM batches WHERE workspace_id = ? AND id = ?').get(workspaceId, id);
    return r ? this.map(r) : null;
  }
  async remove(workspaceId: string, id: string): Promise<void> {
    this.db.transaction(() => {
      if (this.db.prepare('DELETE FROM batches WHERE workspace_id = ? AND id = ?').run(workspaceId, id).changes === 0) return;
      this.db.prepare('DELETE FROM batch_items WHERE batch_id = ?').run(id);
    }).immediate();
  }

  async recordItem(
    workspaceId: string,
    id: string,
    index: number,
    outcome: { ok: true } | { ok: false; error: BatchItemError },
    at: string,
  ): Promise<BatchRecord | null> {
    return this.db.transaction(() => {
      const row = this.db.prepare('SELECT * FROM batches WHERE workspace_id = ? AND id = ?').get(workspaceId, id);
      if (!row) return null;
      const batch = this.map(row);
      const inserted = this.db.prepare('INSERT OR IGNORE INTO batch_items (batch_id, idx, ok) VALUES (?,?,?)').run(id, index, outcome.ok ? 1 : 0);
      if (inserted.changes === 0) return batch;
      if (outcome.ok) batch.imported++;
      else {
        batch.failed++;
        batch.errors.push(outcome.error);
        batch.errors.sort((a, b) => a.index - b.index);
      }
      if (batch.imported + batch.failed >= batch.received) {
        batch.status = 'completed';
        batch.completedAt = at;
      }
      this.db
        .prepare('UPDATE batches SET imported = ?, failed = ?, errors = ?, status = ?, completed_at = ? WHERE id = ?')
        .run(batch.imported, batch.failed, json(batch.errors), batch.status, batch.completedAt, id);
      return batch;
    }).immediate();
  }
  /**
   * `recordItem` with `{ ok: true }` for several items of one batch, synchronously in the caller's
   * transaction (the embedded runner records finished writes in groups). Items already recorded count once.
   */
  recordImportedRows(workspaceId: string, id: string, indexes: number[], at: string): void {
    if (!this.db.prepare('SELECT 1 FROM batches WHERE workspace_id = ? AND id = ?').get(workspaceId, id)) return;
    const insert = this.db.prepare('INSERT OR IGNORE INTO batch_items (batch_id, idx, ok) VALUES (?, ?, 1)');
    let added = 0;
    for (const index of indexes) added += insert.run(id, index).changes;
    if (added === 0) return;
    // The right-hand sides see the row as it was before this update.
    this.db
      .prepare(
        `UPDATE batches SET imported = imported + @added,
           status = CASE WHEN imported + @added + failed >= received THEN 'completed' ELSE status END,
           completed_at = CASE WHEN imported + @added + failed >= received THEN @at ELSE completed_at END
         WHERE id = @id`,
      )
      .run({ added, at, id });
  }
  async listOpenWith(workspaceId: string, memoryIds: string[]) {
    const wanted = new Set(memoryIds);
    const rows = this.db.prepare("SELECT * FROM batches WHERE workspace_id = ? AND status = 'processing'").all(workspaceId);
    return rows.map(this.map).filter((b) => b.memoryIds.some((id) => wanted.has(id)));
  }

  async forgetMemories(workspaceId: string, memoryIds: string[]) {
    if (memoryIds.length === 0) return;
    const erased = new Set(memoryIds);
    this.db.transaction(() => {
      const rows = this.db.prepare('SELECT id, memory_ids, errors FROM batches WHERE workspace_id = ?').all(workspaceId) as any[];
      for (const r of rows) {
        const ids: (string | null)[] = parse(r.memory_ids);
        const errors: BatchItemError[] = parse(r.errors);
        const hit = (m: string | null) => m !== null && erased.has(m);
        if (!ids.some(hit) && !errors.some((e) => hit(e.memory_id))) continue;
        const kept = ids.map((m) => (hit(m) ? null : m));
        const keptErrors = errors.map((e) => (hit(e.memory_id) ? { ...e, memory_id: null } : e));
        this.db.prepare('UPDATE batches SET memory_ids = ?, errors = ? WHERE id = ?').run(json(kept), json(keptErrors), r.id);
      }
    }).immediate();
  }
}

export class SqliteLockRepository implements LockRepository {
  constructor(private readonly db: Database.Database) {}

  // Lease writes wait for the write lock without blocking the thread's other work, and give way to urgent writes.
  async tryAcquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const info = await inWriteTransaction(this.db, () => {
      const now = Date.now();
      return this.db
        .prepare(
          `INSERT INTO locks (key, owner, expires_at) VALUES (?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
           WHERE locks.expires_at < ? OR locks.owner = excluded.owner`,
        )
        .run(key, owner, now + ttlMs, now);
    });
    return info.changes === 1;
  }
  async release(key: string, owner: string) {
    await inWriteTransaction(this.db, () => this.db.prepare('DELETE FROM locks WHERE key = ? AND owner = ?').run(key, owner));
  }
}

export class SqliteSequenceRepository implements SequenceRepository {
  constructor(private readonly db: Database.Database) {}

  async next(name: string, count = 1): Promise<number> {
    return inWriteTransaction(this.db, () => this.nextInTransaction(name, count));
  }

  /** `next`, in the caller's transaction. */
  nextInTransaction(name: string, count = 1): number {
    const row = this.db
      .prepare(
        `INSERT INTO sequences (name, value) VALUES (?, ?)
         ON CONFLICT (name) DO UPDATE SET value = value + excluded.value RETURNING value`,
      )
      .get(name, count) as { value: number };
    return row.value - count + 1;
  }
}
