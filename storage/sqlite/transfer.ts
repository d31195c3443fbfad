import type Database from 'better-sqlite3';
import type { TransferRecord, WorkspaceTransfer } from '../types.js';
import { toRecord as factOf } from './facts.js';
import { toRecord as memoryOf } from './memories.js';
import { json, parse } from './sql.js';

/** Rows read per query while exporting, so a large workspace is never held in memory at once. */
const PAGE = 500;
/** NULL-free scope keys, as entities.ts stores them. */
const keyOf = (value: string | null) => (value === null ? '' : `=${value}`);

/** Workspace export and restore on the embedded database (see WorkspaceTransfer). */
export class SqliteWorkspaceTransfer implements WorkspaceTransfer {
  constructor(private readonly db: Database.Database) {}

  /** Pages through `sql` (which must end in ORDER BY … and take the workspace id) by LIMIT/OFFSET; exports run against a quiet workspace. */
  private *rows(sql: string, workspaceId: string): Generator<any> {
    const statement = this.db.prepare(`${sql} LIMIT ? OFFSET ?`);
    for (let offset = 0; ; offset += PAGE) {
      const rows = statement.all(workspaceId, PAGE, offset) as any[];
      yield* rows;
      if (rows.length < PAGE) return;
    }
  }

  async *read(workspaceId: string): AsyncIterable<TransferRecord> {
    const ws = this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(workspaceId) as any;
    if (ws) yield { kind: 'workspace', record: { id: ws.id, slug: ws.slug, plan: ws.plan, createdAt: ws.created_at } };
    for (const r of this.rows('SELECT * FROM agents WHERE workspace_id = ? ORDER BY created_at, agent_id', workspaceId)) {
      yield { kind: 'agent', record: { workspaceId: r.workspace_id, agentId: r.agent_id, createdAt: r.created_at } };
    }
    for (const r of this.rows('SELECT * FROM api_keys WHERE workspace_id = ? ORDER BY created_at, id', workspaceId)) {
      yield {
        kind: 'key',
        record: { id: r.id, workspaceId: r.workspace_id, hash: r.hash, scopes: parse(r.scopes), agentId: r.agent_id, createdAt: r.created_at, revokedAt: r.revoked_at },
      };
    }
    for (const r of this.rows('SELECT * FROM memories WHERE workspace_id = ? ORDER BY created_at, id', workspaceId)) yield { kind: 'memory', record: memoryOf(r) };
    for (const r of this.rows('SELECT * FROM history WHERE workspace_id = ? ORDER BY memory_id, at, seq', workspaceId)) {
      yield { kind: 'history', record: { id: r.id, workspaceId: r.workspace_id, memoryId: r.memory_id, event: r.event, at: r.at, factId: r.fact_id, fact: r.fact } };
    }
    const refs = this.db.prepare('SELECT memory_ref FROM fact_sources WHERE workspace_id = ? AND fact_id = ? ORDER BY memory_ref');
    for (const r of this.rows('SELECT * FROM facts WHERE workspace_id = ? ORDER BY seq, id', workspaceId)) {
      yield { kind: 'fact', record: factOf(r), sourceRefs: (refs.all(workspaceId, r.id) as { memory_ref: string }[]).map((x) => x.memory_ref) };
    }
    const links = this.db.prepare('SELECT memory_id FROM entity_links WHERE workspace_id = ? AND entity_id = ? ORDER BY memory_id');
    for (const r of this.rows('SELECT * FROM entities WHERE workspace_id = ? ORDER BY created_at, id', workspaceId)) {
      yield {
        kind: 'entity',
        record: {
          id: r.id,
          workspaceId: r.workspace_id,
          agentId: r.agent_id,
          userId: r.user_id,
          canonical: r.canonical,
          name: r.name,
          type: r.type,
          aliases: parse(r.aliases),
          memoryIds: (links.all(workspaceId, r.id) as { memory_id: string }[]).map((x) => x.memory_id),
          createdAt: r.created_at,
          updatedAt: r.updated_at,
        },
      };
    }
    for (const r of this.rows('SELECT * FROM audit WHERE workspace_id = ? ORDER BY ts, id', workspaceId)) {
      yield {
        kind: 'audit',
        record: { id: r.id, workspaceId: r.workspace_id, ts: r.ts, actor: r.actor, action: r.action, result: r.result, userId: r.user_id, targetId: r.target_id, meta: parse(r.meta) },
      };
    }
  }

  async isEmpty(workspaceId: string, slug: string): Promise<boolean> {
    if (this.db.prepare('SELECT 1 FROM workspaces WHERE id = ? OR slug = ?').get(workspaceId, slug)) return false;
    for (const table of ['agents', 'api_keys', 'memories', 'history', 'facts', 'entities', 'audit']) {
      if (this.db.prepare(`SELECT 1 FROM ${table} WHERE workspace_id = ? LIMIT 1`).get(workspaceId)) return false;
    }
    return true;
  }

  async write(records: TransferRecord[]): Promise<void> {
    const db = this.db;
    const run = (sql: string, ...params: unknown[]) => db.prepare(sql).run(...params);
    db.transaction(() => {
      for (const item of records) {
        switch (item.kind) {
          case 'workspace': {
            const w = item.record;
            run('INSERT OR IGNORE INTO workspaces (id, slug, plan, created_at) VALUES (?,?,?,?)', w.id, w.slug, w.plan, w.createdAt);
            break;
          }
          case 'agent': {
            const a = item.record;
            run('INSERT OR IGNORE INTO agents (workspace_id, agent_id, created_at) VALUES (?,?,?)', a.workspaceId, a.agentId, a.createdAt);
            break;
          }
          case 'key': {
            const k = item.record;
            run('INSERT OR IGNORE INTO api_keys (id, workspace_id, hash, scopes, agent_id, created_at, revoked_at) VALUES (?,?,?,?,?,?,?)',
              k.id, k.workspaceId, k.hash, json(k.scopes), k.agentId, k.createdAt, k.revokedAt);
            break;
          }
          case 'memory': {
            const m = item.record;
            run(`INSERT OR IGNORE INTO memories (id, workspace_id, user_id, agent_id, run_id, content, metadata, status, error, version, seq,
                   reference_time, created_at, updated_at, deleted_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
              m.id, m.workspaceId, m.userId, m.agentId, m.runId, m.content, json(m.metadata), m.status, m.error, m.version, m.seq,
              m.referenceTime, m.createdAt, m.updatedAt, m.deletedAt);
            break;
          }
          case 'history': {
            const e = item.record;
            run('INSERT OR IGNORE INTO history (id, workspace_id, memory_id, event, at, fact_id, fact) VALUES (?,?,?,?,?,?,?)',
              e.id, e.workspaceId, e.memoryId, e.event, e.at, e.factId, e.fact);
            break;
          }
          case 'fact': {
            const f = item.record;
            run(`INSERT OR IGNORE INTO facts (id, workspace_id, user_id, agent_id, run_id, subject, subject_key, subject_type, predicate,
                   predicate_raw, family, object, object_key, object_is_literal, tense, confidence, valid_from, invalid_at, invalidated_by,
                   invalidated, confirmations, last_confirmed_at, source_memory_id, source_memory_ids, source_version, seq, created_at, valid_from_stated)
                 VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
              f.id, f.workspaceId, f.userId, f.agentId, f.runId, f.subject, f.subjectKey, f.subjectType, f.predicate, f.predicateRaw,
              f.family, f.object, f.objectKey, f.objectIsLiteral ? 1 : 0, f.tense, f.confidence, f.validFrom, f.invalidAt, f.invalidatedBy,
              json(f.invalidated), json(f.confirmations), f.lastConfirmedAt, f.sourceMemoryId, json(f.sourceMemoryIds), f.sourceVersion,
              f.seq, f.createdAt, f.validFromStated === false ? 0 : 1);
            for (const ref of item.sourceRefs) run('INSERT OR IGNORE INTO fact_sources (workspace_id, memory_ref, fact_id) VALUES (?,?,?)', f.workspaceId, ref, f.id);
            break;
          }
          case 'entity': {
            const e = item.record;
            run(`INSERT OR IGNORE INTO entities (id, workspace_id, agent_key, user_key, agent_id, user_id, canonical, name, type, aliases, memory_ids,
                   created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,'[]',?,?)`,
              e.id, e.workspaceId, keyOf(e.agentId), keyOf(e.userId), e.agentId, e.userId, e.canonical, e.name, e.type, json(e.aliases), e.createdAt, e.updatedAt);
            for (const memoryId of e.memoryIds) run('INSERT OR IGNORE INTO entity_links (workspace_id, memory_id, entity_id) VALUES (?,?,?)', e.workspaceId, memoryId, e.id);
            break;
          }
          case 'audit': {
            const a = item.record;
            run('INSERT OR IGNORE INTO audit (id, workspace_id, ts, actor, action, result, user_id, target_id, meta) VALUES (?,?,?,?,?,?,?,?,?)',
              a.id, a.workspaceId, a.ts, a.actor, a.action, a.result, a.userId, a.targetId, json(a.meta));
            break;
          }
        }
      }
    }).immediate();
  }
}
