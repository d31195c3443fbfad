import type Database from 'better-sqlite3';
import { ulid } from 'ulid';
import type { EntityType } from '../../pipeline/types.js';
import type { EntityRecord, EntityRepository, UserScope } from '../types.js';
import { Where, json, parse } from './sql.js';

/** NULL-free keys so (workspace, agent, user, canonical) can be UNIQUE. */
const keyOf = (value: string | null) => (value === null ? '' : `=${value}`);

export class SqliteEntityRepository implements EntityRepository {
  constructor(private readonly db: Database.Database) {}

  private map = (r: any): EntityRecord => ({
    id: r.id,
    workspaceId: r.workspace_id,
    agentId: r.agent_id,
    userId: r.user_id,
    canonical: r.canonical,
    name: r.name,
    type: r.type,
    aliases: parse(r.aliases),
    memoryIds: (this.db.prepare('SELECT memory_id FROM entity_links WHERE entity_id = ? ORDER BY memory_id').all(r.id) as any[]).map(
      (l) => l.memory_id,
    ),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  async upsert(
    scope: UserScope,
    entity: { canonical: string; name: string; type: EntityType; aliases: string[] },
    memoryId: string,
    at: string,
  ): Promise<void> {
    this.db.transaction(() => {
      const existing = this.db
        .prepare('SELECT id, aliases FROM entities WHERE workspace_id = ? AND agent_key = ? AND user_key = ? AND canonical = ?')
        .get(scope.workspaceId, keyOf(scope.agentId), keyOf(scope.userId), entity.canonical) as { id: string; aliases: string } | undefined;
      let id: string;
      if (existing) {
        id = existing.id;
        const aliases = new Set<string>(parse(existing.aliases));
        for (const alias of entity.aliases) aliases.add(alias);
        this.db.prepare('UPDATE entities SET aliases = ?, updated_at = ? WHERE id = ?').run(json([...aliases].sort()), at, id);
      } else {
        id = `ent_${ulid()}`;
        this.db
          .prepare(
            `INSERT INTO entities (id, workspace_id, agent_key, user_key, agent_id, user_id, canonical, name, type, aliases, memory_ids,
              created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?,'[]',?,?)`,
          )
          .run(id, scope.workspaceId, keyOf(scope.agentId), keyOf(scope.userId), scope.agentId, scope.userId, entity.canonical,
            entity.name, entity.type, json([...new Set(entity.aliases)].sort()), at, at);
      }
      this.db.prepare('INSERT OR IGNORE INTO entity_links (workspace_id, memory_id, entity_id) VALUES (?,?,?)').run(scope.workspaceId, memoryId, id);
    }).immediate();
  }

  async find(scope: Partial<UserScope> & { workspaceId: string }, canonical: string): Promise<EntityRecord[]> {
    const w = new Where().eq('workspace_id', scope.workspaceId).eq('canonical', canonical);
    if (scope.agentId !== undefined) w.eq('agent_key', keyOf(scope.agentId));
    if (scope.userId !== undefined) w.eq('user_key', keyOf(scope.userId));
    return (this.db.prepare(`SELECT * FROM entities ${w.sql}`).all(...w.params) as any[]).map(this.map);
  }

  async resolve(scope: Partial<UserScope> & { workspaceId: string }, key: string): Promise<EntityRecord[]> {
    const w = new Where().eq('workspace_id', scope.workspaceId);
    if (scope.agentId !== undefined) w.eq('agent_key', keyOf(scope.agentId));
    if (scope.userId !== undefined) w.eq('user_key', keyOf(scope.userId));
    w.raw('(canonical = ? OR EXISTS (SELECT 1 FROM json_each(entities.aliases) WHERE lower(value) = ?))', key, key);
    return (this.db.prepare(`SELECT * FROM entities ${w.sql} ORDER BY created_at, id`).all(...w.params) as any[]).map(this.map);
  }

  async listByMemory(workspaceId: string, memoryId: string): Promise<EntityRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT e.* FROM entities e JOIN entity_links l ON l.entity_id = e.id
         WHERE l.workspace_id = ? AND l.memory_id = ? ORDER BY e.canonical`,
      )
      .all(workspaceId, memoryId) as any[];
    return rows.map(this.map);
  }

  async unlinkMemory(workspaceId: string, memoryId: string): Promise<void> {
    this.db.transaction(() => {
      const linked = this.db.prepare('SELECT entity_id FROM entity_links WHERE workspace_id = ? AND memory_id = ?').all(workspaceId, memoryId) as any[];
      this.db.prepare('DELETE FROM entity_links WHERE workspace_id = ? AND memory_id = ?').run(workspaceId, memoryId);
      for (const { entity_id } of linked) {
        if (!this.db.prepare('SELECT 1 FROM entity_links WHERE entity_id = ? LIMIT 1').get(entity_id)) {
          this.db.prepare('DELETE FROM entities WHERE id = ?').run(entity_id);
        }
      }
    }).immediate();
  }

  async purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<number> {
    return this.db.transaction(() => {
      const w = new Where().eq('workspace_id', filter.workspaceId);
      if (filter.agentId !== undefined) w.eq('agent_key', keyOf(filter.agentId));
      if (filter.userId !== undefined) w.eq('user_key', keyOf(filter.userId));
      const ids = (this.db.prepare(`SELECT id FROM entities ${w.sql}`).all(...w.params) as any[]).map((r) => r.id as string);
      if (ids.length === 0) return 0;
      const byId = new Where().in('entity_id', ids);
      this.db.prepare(`DELETE FROM entity_links ${byId.sql}`).run(...byId.params);
      const del = new Where().in('id', ids);
      return this.db.prepare(`DELETE FROM entities ${del.sql}`).run(...del.params).changes;
    }).immediate();
  }
}
