import type { Collection, Document, Filter, Sort } from 'mongodb';
import type { HistoryRepository, TransferRecord, WorkspaceTransfer } from '../types.js';
import { toRecord as entityOf, type EntityDoc } from './entities.js';
import { toDoc as factDoc, toRecord as factOf, type FactDoc } from './facts.js';
import { toDoc as memoryDoc, toRecord as memoryOf, type MemoryDoc } from './memories.js';
import type { AgentDoc, ApiKeyDoc, AuditDoc, HistoryDoc, WorkspaceDoc } from './records.js';
import { byString, isDuplicateKeyError } from './util.js';

export interface TransferCollections {
  workspaces: Collection<WorkspaceDoc>;
  keys: Collection<ApiKeyDoc>;
  agents: Collection<AgentDoc>;
  memories: Collection<MemoryDoc>;
  facts: Collection<FactDoc>;
  entities: Collection<EntityDoc>;
  history: Collection<HistoryDoc>;
  audit: Collection<AuditDoc>;
}

/** Documents written per insertMany while restoring. */
const CHUNK = 500;

/** Insert-if-absent: unordered, so every new document is written even when some ids (or unique keys) exist. */
async function insertAbsent<T extends Document>(col: Collection<T>, docs: T[]): Promise<void> {
  for (let i = 0; i < docs.length; i += CHUNK) {
    try {
      await col.insertMany(docs.slice(i, i + CHUNK) as any, { ordered: false });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}

/** Workspace export and restore on MongoDB (see WorkspaceTransfer). */
export class MongoWorkspaceTransfer implements WorkspaceTransfer {
  constructor(
    private readonly c: TransferCollections,
    /** History keeps its insertion counter: events are appended through the repository, in the order given. */
    private readonly history: HistoryRepository,
  ) {}

  private find<T extends Document>(col: Collection<T>, workspaceId: string, sort: Sort): AsyncIterable<T> {
    return col.find({ workspaceId } as unknown as Filter<T>).sort(sort) as unknown as AsyncIterable<T>;
  }

  async *read(workspaceId: string): AsyncIterable<TransferRecord> {
    const ws = await this.c.workspaces.findOne({ _id: workspaceId });
    if (ws) yield { kind: 'workspace', record: { id: ws._id, slug: ws.slug, plan: ws.plan, createdAt: ws.createdAt } };
    for await (const d of this.find(this.c.agents, workspaceId, { createdAt: 1, agentId: 1 })) {
      yield { kind: 'agent', record: { workspaceId: d.workspaceId, agentId: d.agentId, createdAt: d.createdAt } };
    }
    for await (const d of this.find(this.c.keys, workspaceId, { createdAt: 1, _id: 1 })) {
      yield {
        kind: 'key',
        record: { id: d._id, workspaceId: d.workspaceId, hash: d.hash, scopes: [...d.scopes], agentId: d.agentId ?? null, createdAt: d.createdAt, revokedAt: d.revokedAt ?? null },
      };
    }
    for await (const d of this.find(this.c.memories, workspaceId, { createdAt: 1, _id: 1 })) yield { kind: 'memory', record: memoryOf(d) };
    for await (const d of this.find(this.c.history, workspaceId, { memoryId: 1, at: 1, ord: 1 })) {
      yield { kind: 'history', record: { id: d._id, workspaceId: d.workspaceId, memoryId: d.memoryId, event: d.event, at: d.at, factId: d.factId ?? null, fact: d.fact ?? null } };
    }
    for await (const d of this.find(this.c.facts, workspaceId, { seq: 1, _id: 1 })) {
      yield { kind: 'fact', record: factOf(d), sourceRefs: [...(d.sourceRefs ?? [])].sort(byString) };
    }
    for await (const d of this.find(this.c.entities, workspaceId, { createdAt: 1, _id: 1 })) yield { kind: 'entity', record: entityOf(d) };
    for await (const d of this.find(this.c.audit, workspaceId, { ts: 1, _id: 1 })) {
      yield {
        kind: 'audit',
        record: { id: d._id, workspaceId: d.workspaceId, ts: d.ts, actor: d.actor, action: d.action, result: d.result, userId: d.userId ?? null, targetId: d.targetId ?? null, meta: JSON.parse(d.meta) },
      };
    }
  }

  async isEmpty(workspaceId: string, slug: string): Promise<boolean> {
    if (await this.c.workspaces.findOne({ $or: [{ _id: workspaceId }, { slug }] }, { projection: { _id: 1 } })) return false;
    const { workspaces: _, ...scoped } = this.c;
    for (const col of Object.values(scoped) as Collection<any>[]) {
      if (await col.findOne({ workspaceId }, { projection: { _id: 1 } })) return false;
    }
    return true;
  }

  async write(records: TransferRecord[]): Promise<void> {
    const of = <K extends TransferRecord['kind']>(kind: K) => records.filter((r): r is Extract<TransferRecord, { kind: K }> => r.kind === kind);
    await insertAbsent(this.c.agents, of('agent').map(({ record: a }) => ({ workspaceId: a.workspaceId, agentId: a.agentId, createdAt: a.createdAt })));
    await insertAbsent(
      this.c.keys,
      of('key').map(({ record: k }) => ({ _id: k.id, workspaceId: k.workspaceId, hash: k.hash, scopes: [...k.scopes], agentId: k.agentId, createdAt: k.createdAt, revokedAt: k.revokedAt })),
    );
    await insertAbsent(this.c.memories, of('memory').map(({ record }) => memoryDoc(record)));
    // Appending an event that exists is a no-op, but it would reserve counter values: only new events are appended.
    const events = of('history').map((r) => r.record);
    for (let i = 0; i < events.length; i += CHUNK) {
      const part = events.slice(i, i + CHUNK);
      const present = new Set((await this.c.history.find({ _id: { $in: part.map((e) => e.id) } }, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
      await this.history.append(part.filter((e) => !present.has(e.id)));
    }
    await insertAbsent(this.c.facts, of('fact').map(({ record, sourceRefs }) => ({ ...factDoc(record), sourceRefs: [...sourceRefs] })));
    await insertAbsent(
      this.c.entities,
      of('entity').map(({ record: e }) => ({
        _id: e.id,
        workspaceId: e.workspaceId,
        agentId: e.agentId,
        userId: e.userId,
        canonical: e.canonical,
        name: e.name,
        type: e.type,
        aliases: [...e.aliases],
        memoryIds: [...e.memoryIds],
        createdAt: e.createdAt,
        updatedAt: e.updatedAt,
      })),
    );
    await insertAbsent(
      this.c.audit,
      of('audit').map(({ record: a }) => ({
        _id: a.id,
        workspaceId: a.workspaceId,
        ts: a.ts,
        actor: a.actor,
        action: a.action,
        result: a.result,
        userId: a.userId,
        targetId: a.targetId,
        meta: JSON.stringify(a.meta ?? {}),
      })),
    );
    await insertAbsent(this.c.workspaces, of('workspace').map(({ record: w }) => ({ _id: w.id, slug: w.slug, plan: w.plan, createdAt: w.createdAt })));
  }
}
