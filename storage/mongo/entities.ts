import type { Collection, Filter, IndexDescription } from 'mongodb';
import { ulid } from 'ulid';
import type { EntityType } from '../../pipeline/types.js';
import type { EntityRecord, EntityRepository, UserScope } from '../types.js';
import { byString, chunks, isDuplicateKeyError } from './util.js';

/**
 * One document per entity, `_id` = entity id, unique on (workspace, agent, user,
 * canonical) with nulls stored explicitly (a unique index treats null as a value,
 * so the default namespace / no-user scope is one key like any other).
 * `memoryIds` holds the linking memories (the SQLite store's entity_links).
 */
export interface EntityDoc extends Omit<EntityRecord, 'id'> {
  _id: string;
}

export const toRecord = (d: EntityDoc): EntityRecord => ({
  id: d._id,
  workspaceId: d.workspaceId,
  agentId: d.agentId ?? null,
  userId: d.userId ?? null,
  canonical: d.canonical,
  name: d.name,
  type: d.type,
  aliases: [...(d.aliases ?? [])].sort(byString),
  memoryIds: [...(d.memoryIds ?? [])].sort(byString),
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});

export const entityIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, agentId: 1, userId: 1, canonical: 1 }, name: 'scope_canonical', unique: true },
  { key: { workspaceId: 1, canonical: 1 }, name: 'ws_canonical' },
  { key: { workspaceId: 1, memoryIds: 1 }, name: 'ws_memory' },
];

export class MongoEntityRepository implements EntityRepository {
  constructor(private readonly col: Collection<EntityDoc>) {}

  async upsert(
    scope: UserScope,
    entity: { canonical: string; name: string; type: EntityType; aliases: string[] },
    memoryId: string,
    at: string,
  ): Promise<void> {
    const key = { workspaceId: scope.workspaceId, agentId: scope.agentId ?? null, userId: scope.userId ?? null, canonical: entity.canonical };
    // Merge into the existing entity, or insert it; an insert that loses a race on the
    // unique scope index retries as a merge.
    for (let attempt = 0; attempt < 3; attempt++) {
      const merged = await this.col.updateOne(key, {
        $addToSet: { aliases: { $each: entity.aliases }, memoryIds: memoryId },
        $set: { updatedAt: at },
      });
      if (merged.matchedCount > 0) return;
      try {
        await this.col.insertOne({
          _id: `ent_${ulid()}`,
          ...key,
          name: entity.name,
          type: entity.type,
          aliases: [...new Set(entity.aliases)].sort(byString),
          memoryIds: [memoryId],
          createdAt: at,
          updatedAt: at,
        });
        return;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
    throw new Error(`entity upsert did not settle for ${entity.canonical}`);
  }

  async find(scope: Partial<UserScope> & { workspaceId: string }, canonical: string): Promise<EntityRecord[]> {
    const f: Filter<EntityDoc> = { workspaceId: scope.workspaceId, canonical };
    if (scope.agentId !== undefined) f.agentId = scope.agentId;
    if (scope.userId !== undefined) f.userId = scope.userId;
    const docs = await this.col.find(f).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toRecord);
  }

  async resolve(scope: Partial<UserScope> & { workspaceId: string }, key: string): Promise<EntityRecord[]> {
    // Aliases are stored as extracted (relation words such as "sister" are lower-case already).
    const f: Filter<EntityDoc> = { workspaceId: scope.workspaceId, $or: [{ canonical: key }, { aliases: key }] };
    if (scope.agentId !== undefined) f.agentId = scope.agentId;
    if (scope.userId !== undefined) f.userId = scope.userId;
    const docs = await this.col.find(f).sort({ createdAt: 1, _id: 1 }).toArray();
    return docs.map(toRecord);
  }

  async listByMemory(workspaceId: string, memoryId: string): Promise<EntityRecord[]> {
    const docs = await this.col.find({ workspaceId, memoryIds: memoryId }).sort({ canonical: 1, _id: 1 }).toArray();
    return docs.map(toRecord);
  }

  async unlinkMemory(workspaceId: string, memoryId: string): Promise<void> {
    const linked = await this.col.find({ workspaceId, memoryIds: memoryId }, { projection: { _id: 1 } }).toArray();
    if (linked.length === 0) return;
    await this.col.updateMany({ workspaceId, memoryIds: memoryId }, { $pull: { memoryIds: memoryId } });
    // Only the entities just unlinked, and only while still empty: a concurrent
    // upsert that re-linked one keeps it.
    for (const part of chunks(linked.map((d) => d._id))) {
      await this.col.deleteMany({ workspaceId, _id: { $in: part }, memoryIds: { $size: 0 } });
    }
  }

  async purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<number> {
    const f: Filter<EntityDoc> = { workspaceId: filter.workspaceId };
    if (filter.agentId !== undefined) f.agentId = filter.agentId;
    if (filter.userId !== undefined) f.userId = filter.userId;
    return (await this.col.deleteMany(f)).deletedCount;
  }
}
