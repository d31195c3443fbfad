import type { Collection, Document, Filter, IndexDescription } from 'mongodb';
import type { MemoryFilter, MemoryRecord, MemoryRepository, MemoryVersionSummary, Page, Paged, ScopeSummary, UserScope } from '../types.js';
import { byString, findAndDelete, maybe, pageOf } from './util.js';
import { isNotImplemented, type ServerTraits } from './compat.js';

/**
 * One document per memory, `_id` = memory id. `metadata` is kept as JSON text:
 * it is caller-supplied (keys may contain `.` or start with `$`, which MongoDB
 * field names handle badly), is never queried here (metadata filtering lives in
 * the vector index), and JSON text round-trips exactly as in the SQLite store.
 */
export interface MemoryDoc {
  _id: string;
  workspaceId: string;
  userId: string | null;
  agentId: string | null;
  runId: string | null;
  content: string;
  metadata: string;
  status: MemoryRecord['status'];
  error: string | null;
  version: number;
  seq: number;
  referenceTime: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export const toDoc = (m: MemoryRecord): MemoryDoc => ({
  _id: m.id,
  workspaceId: m.workspaceId,
  userId: m.userId ?? null,
  agentId: m.agentId ?? null,
  runId: m.runId ?? null,
  content: m.content,
  metadata: JSON.stringify(m.metadata ?? {}),
  status: m.status,
  error: m.error ?? null,
  version: m.version,
  seq: m.seq,
  referenceTime: m.referenceTime ?? null,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
  deletedAt: m.deletedAt ?? null,
});

export const toRecord = (d: MemoryDoc): MemoryRecord => ({
  id: d._id,
  workspaceId: d.workspaceId,
  userId: d.userId ?? null,
  agentId: d.agentId ?? null,
  runId: d.runId ?? null,
  content: d.content,
  metadata: JSON.parse(d.metadata) as Record<string, unknown>,
  status: d.status,
  error: d.error ?? null,
  version: d.version,
  seq: d.seq,
  referenceTime: d.referenceTime ?? null,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
  deletedAt: d.deletedAt ?? null,
});

/** Patchable fields (same names in record and document). */
const PATCHABLE = ['content', 'status', 'error', 'version', 'seq', 'updatedAt', 'deletedAt'] as const;

const SUMMARY = { _id: 1, deletedAt: 1, version: 1 } as const;
const toSummaries = (docs: Pick<MemoryDoc, '_id' | 'deletedAt' | 'version'>[]): MemoryVersionSummary[] =>
  docs.map((d) => ({ id: d._id, version: d.version, active: d.deletedAt === null || d.deletedAt === undefined }));

function where(filter: MemoryFilter): Filter<MemoryDoc> {
  const f: Filter<MemoryDoc> = { workspaceId: filter.workspaceId };
  maybe(f, 'userId', filter.userId);
  maybe(f, 'agentId', filter.agentId);
  maybe(f, 'runId', filter.runId);
  maybe(f, 'status', filter.status);
  if (filter.ids) f._id = { $in: filter.ids };
  if (!filter.includeForgotten) f.deletedAt = null;
  return f;
}

export const memoryIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, createdAt: -1, _id: -1 }, name: 'ws_created' },
  { key: { workspaceId: 1, userId: 1, createdAt: -1 }, name: 'ws_user_created' },
  { key: { workspaceId: 1, agentId: 1, userId: 1 }, name: 'ws_agent_user' },
  { key: { workspaceId: 1, agentId: 1, userId: 1, status: 1, seq: 1 }, name: 'ws_scope_status_seq' },
];

export class MongoMemoryRepository implements MemoryRepository {
  constructor(
    private readonly col: Collection<MemoryDoc>,
    private readonly traits: Pick<ServerTraits, 'lookupIdsOneByOne'> = { lookupIdsOneByOne: false },
  ) {}

  async insert(memory: MemoryRecord): Promise<void> {
    await this.col.insertOne(toDoc(memory));
  }

  async insertMany(memories: MemoryRecord[]): Promise<void> {
    if (memories.length) await this.col.insertMany(memories.map(toDoc), { ordered: true });
  }

  async get(workspaceId: string, id: string): Promise<MemoryRecord | null> {
    const doc = await this.col.findOne({ _id: id, workspaceId });
    return doc ? toRecord(doc) : null;
  }

  async getMany(workspaceId: string, ids: string[]): Promise<MemoryRecord[]> {
    if (ids.length === 0) return [];
    if (this.traits.lookupIdsOneByOne) {
      // By `_id` alone, which FerretDB stops reading at its match (see compat.ts); the workspace is checked here.
      const docs = await Promise.all([...new Set(ids)].map((_id) => this.col.findOne({ _id })));
      return docs.flatMap((doc) => (doc && doc.workspaceId === workspaceId ? [toRecord(doc)] : []));
    }
    const docs = await this.col.find({ workspaceId, _id: { $in: ids } }).toArray();
    return docs.map(toRecord);
  }

  async neighbours(workspaceId: string, memories: MemoryRecord[]): Promise<MemoryRecord[][]> {
    const around = (m: MemoryRecord) =>
      Promise.all(
        ([['$lt', -1], ['$gt', 1]] as const).map(([op, order]) =>
          // The fields of the ws_scope_status_seq index, so each lookup reads one index entry.
          this.col.findOne({ workspaceId, agentId: m.agentId, userId: m.userId, status: 'ready', seq: { [op]: m.seq }, deletedAt: null }, { sort: { seq: order } }),
        ),
      );
    const found = await Promise.all(memories.map((m) => (m.workspaceId === workspaceId ? around(m) : [])));
    return found.map((docs) => docs.flatMap((doc) => (doc ? [toRecord(doc)] : [])));
  }

  async list(filter: MemoryFilter, page: Page): Promise<Paged<MemoryRecord>> {
    const f = where(filter);
    const window = pageOf(page);
    const [docs, total] = await Promise.all([
      window
        ? this.col.find(f).sort({ createdAt: -1, _id: -1 }).skip(window.skip).limit(window.limit).toArray()
        : Promise.resolve([] as MemoryDoc[]),
      this.col.countDocuments(f),
    ]);
    return { items: docs.map(toRecord), total };
  }

  async pendingBefore(scope: UserScope, seq: number, since: string): Promise<boolean> {
    const doc = await this.col.findOne(
      {
        workspaceId: scope.workspaceId,
        agentId: scope.agentId,
        userId: scope.userId,
        status: 'processing',
        deletedAt: null,
        seq: { $lt: seq },
        updatedAt: { $gt: since },
      },
      { projection: { _id: 1 } },
    );
    return doc !== null;
  }

  async count(filter: MemoryFilter): Promise<number> {
    return this.col.countDocuments(where(filter));
  }

  async update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<MemoryRecord, 'content' | 'status' | 'error' | 'version' | 'seq' | 'updatedAt' | 'deletedAt'>>,
    expectVersion?: number,
  ): Promise<MemoryRecord | null> {
    const set: Document = {};
    for (const key of PATCHABLE) {
      const value = patch[key];
      if (value !== undefined) set[key] = value;
    }
    if (Object.keys(set).length === 0) return this.get(workspaceId, id);
    const f: Filter<MemoryDoc> = { _id: id, workspaceId, deletedAt: null };
    if (expectVersion !== undefined) f.version = expectVersion;
    const doc = await this.col.findOneAndUpdate(f, { $set: set }, { returnDocument: 'after' });
    return doc ? toRecord(doc) : null;
  }

  async forget(workspaceId: string, id: string, at: string): Promise<MemoryRecord | null> {
    const doc = await this.col.findOneAndUpdate(
      { _id: id, workspaceId, deletedAt: null },
      { $set: { content: '', metadata: '{}', deletedAt: at, status: 'ready', error: null } },
      { returnDocument: 'after' },
    );
    return doc ? toRecord(doc) : null;
  }

  async versions(filter: MemoryFilter): Promise<MemoryVersionSummary[]> {
    return toSummaries(await this.col.find(where(filter), { projection: SUMMARY }).toArray());
  }

  async purge(filter: MemoryFilter): Promise<MemoryVersionSummary[]> {
    return toSummaries(await findAndDelete(this.col, where({ ...filter, includeForgotten: true }), SUMMARY));
  }

  async summarizeByUser(workspaceId: string, agentId: string | null | undefined, page: Page): Promise<Paged<ScopeSummary>> {
    const match: Document = { workspaceId, deletedAt: null, userId: { $ne: null } };
    if (agentId !== undefined) match.agentId = agentId;
    const window = pageOf(page);
    let result: { items: ScopeSummary[]; total: { n: number }[] } | undefined;
    try {
      [result] = await this.col
      .aggregate<{ items: ScopeSummary[]; total: { n: number }[] }>([
        { $match: match },
        { $group: { _id: '$userId', memories: { $sum: 1 }, lastActive: { $max: '$updatedAt' } } },
        {
          $facet: {
            items: window
              ? [
                  { $sort: { lastActive: -1, _id: 1 } },
                  { $skip: window.skip },
                  { $limit: window.limit },
                  { $project: { _id: 0, key: '$_id', memories: 1, lastActive: 1 } },
                ]
              : [{ $match: { _id: { $exists: false } } }],
            total: [{ $count: 'n' }],
          },
        },
      ], { allowDiskUse: true })
      .toArray();
    } catch (error) {
      if (!isNotImplemented(error)) throw error;
      const all = await this.summarizeInProcess(match, '$userId');
      all.sort((a, b) => byString(b.lastActive, a.lastActive) || byString(a.key, b.key));
      return { items: window ? all.slice(window.skip, window.skip + window.limit) : [], total: all.length };
    }
    return { items: (result?.items ?? []).map(summary), total: result?.total[0]?.n ?? 0 };
  }

  async summarizeByAgent(workspaceId: string, agentIds: string[]): Promise<ScopeSummary[]> {
    if (agentIds.length === 0) return [];
    const match: Document = { workspaceId, deletedAt: null, agentId: { $in: agentIds } };
    let rows: ScopeSummary[];
    try {
      rows = await this.col
      .aggregate<ScopeSummary>([
        { $match: match },
        { $group: { _id: '$agentId', memories: { $sum: 1 }, lastActive: { $max: '$updatedAt' } } },
        { $project: { _id: 0, key: '$_id', memories: 1, lastActive: 1 } },
      ])
      .toArray();
    } catch (error) {
      if (!isNotImplemented(error)) throw error;
      rows = await this.summarizeInProcess(match, '$agentId');
    }
    return rows.map(summary);
  }

  /**
   * The same grouping done here, for servers without `$max` / `$facet` (FerretDB 1.x, see compat.ts): streams
   * only the two fields it needs; memory stays bounded by the number of groups.
   */
  private async summarizeInProcess(match: Document, key: '$userId' | '$agentId'): Promise<ScopeSummary[]> {
    const field = key.slice(1) as 'userId' | 'agentId';
    const groups = new Map<string, ScopeSummary>();
    for await (const d of this.col.find(match, { projection: { _id: 0, [field]: 1, updatedAt: 1 } })) {
      const k = d[field] as string;
      const g = groups.get(k);
      if (!g) groups.set(k, { key: k, memories: 1, lastActive: d.updatedAt });
      else {
        g.memories += 1;
        if (d.updatedAt > g.lastActive) g.lastActive = d.updatedAt;
      }
    }
    return [...groups.values()];
  }
}

/** Plain objects with exactly the interface's fields (numbers as JS numbers). */
const summary = (r: ScopeSummary): ScopeSummary => ({ key: r.key, memories: Number(r.memories), lastActive: r.lastActive });
