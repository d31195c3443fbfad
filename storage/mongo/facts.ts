import type { Collection, Document, Filter, IndexDescription } from 'mongodb';
import type { ContextFact, FactFilter, FactRecord, FactRepository, MemoryVersionRef, Page, Paged, UserScope } from '../types.js';
import { findAndDelete, isDuplicateKeyError, maybe, pageOf } from './util.js';

/**
 * One document per fact, `_id` = fact id. `sourceRefs` ("memoryId@version") is the
 * document-shaped replacement for SQLite's fact_sources join table: the versions
 * that extracted or confirmed the fact, multikey-indexed for listForMemory.
 */
export interface FactDoc extends Omit<FactRecord, 'id'> {
  _id: string;
  sourceRefs: string[];
}

const refOf = (s: MemoryVersionRef) => `${s.memoryId}@${s.version}`;

export const toDoc = (f: FactRecord): FactDoc => ({
  _id: f.id,
  workspaceId: f.workspaceId,
  userId: f.userId ?? null,
  agentId: f.agentId ?? null,
  runId: f.runId ?? null,
  subject: f.subject,
  subjectType: f.subjectType,
  predicate: f.predicate,
  predicateRaw: f.predicateRaw,
  family: f.family,
  object: f.object,
  objectKey: f.objectKey,
  subjectKey: f.subjectKey,
  objectIsLiteral: f.objectIsLiteral,
  tense: f.tense,
  confidence: f.confidence,
  validFrom: f.validFrom,
  validFromStated: f.validFromStated !== false,
  invalidAt: f.invalidAt ?? null,
  invalidatedBy: f.invalidatedBy ?? null,
  invalidated: [...f.invalidated],
  confirmations: [...f.confirmations],
  lastConfirmedAt: f.lastConfirmedAt,
  sourceMemoryId: f.sourceMemoryId ?? null,
  sourceMemoryIds: [...f.sourceMemoryIds],
  sourceVersion: f.sourceVersion,
  seq: f.seq,
  createdAt: f.createdAt,
  sourceRefs: f.sourceMemoryId ? [refOf({ memoryId: f.sourceMemoryId, version: f.sourceVersion })] : [],
});

export const toRecord = (d: FactDoc): FactRecord => ({
  id: d._id,
  workspaceId: d.workspaceId,
  userId: d.userId ?? null,
  agentId: d.agentId ?? null,
  runId: d.runId ?? null,
  subject: d.subject,
  subjectKey: d.subjectKey,
  subjectType: d.subjectType,
  predicate: d.predicate,
  predicateRaw: d.predicateRaw,
  family: d.family,
  object: d.object,
  objectKey: d.objectKey,
  objectIsLiteral: d.objectIsLiteral,
  tense: d.tense,
  confidence: d.confidence,
  validFrom: d.validFrom,
  validFromStated: d.validFromStated !== false,
  invalidAt: d.invalidAt ?? null,
  invalidatedBy: d.invalidatedBy ?? null,
  invalidated: d.invalidated ?? [],
  confirmations: d.confirmations ?? [],
  lastConfirmedAt: d.lastConfirmedAt,
  sourceMemoryId: d.sourceMemoryId ?? null,
  sourceMemoryIds: d.sourceMemoryIds ?? [],
  sourceVersion: d.sourceVersion,
  seq: d.seq,
  createdAt: d.createdAt,
});

function where(f: FactFilter): Filter<FactDoc> {
  const base: Filter<FactDoc> = { workspaceId: f.workspaceId };
  const and: Filter<FactDoc>[] = [];
  maybe(base, 'userId', f.userId);
  maybe(base, 'agentId', f.agentId);
  maybe(base, 'runId', f.runId);
  maybe(base, 'subjectKey', f.subjectKey);
  maybe(base, 'predicate', f.predicate);
  maybe(base, 'family', f.family);
  maybe(base, 'sourceMemoryId', f.sourceMemoryId);
  if (f.entity !== undefined) and.push({ $or: [{ subjectKey: { $in: f.entity.subjectKeys } }, { objectKey: { $in: f.entity.objectKeys } }] });
  if (f.ids) base._id = { $in: f.ids };
  if (f.asOf !== undefined) {
    base.validFrom = { $lte: f.asOf };
    and.push({ $or: [{ invalidAt: null }, { invalidAt: { $gt: f.asOf } }] });
  } else if (!f.includeInvalidated) {
    base.invalidAt = null;
  }
  return and.length > 0 ? { ...base, $and: and } : base;
}

export const factIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, validFrom: -1, seq: -1, _id: 1 }, name: 'ws_order' },
  { key: { workspaceId: 1, userId: 1, agentId: 1, subjectKey: 1, predicate: 1 }, name: 'ws_scope_subject' },
  { key: { workspaceId: 1, agentId: 1, userId: 1, invalidAt: 1 }, name: 'ws_agent_user_live' },
  { key: { workspaceId: 1, subjectKey: 1 }, name: 'ws_subject' },
  { key: { workspaceId: 1, objectKey: 1 }, name: 'ws_object' },
  { key: { workspaceId: 1, sourceMemoryId: 1 }, name: 'ws_source' },
  { key: { workspaceId: 1, invalidatedBy: 1 }, name: 'ws_invalidated_by' },
  { key: { workspaceId: 1, sourceRefs: 1 }, name: 'ws_source_refs' },
];

export class MongoFactRepository implements FactRepository {
  constructor(private readonly col: Collection<FactDoc>) {}

  async insert(fact: FactRecord): Promise<boolean> {
    try {
      await this.col.insertOne(toDoc(fact));
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async get(workspaceId: string, id: string): Promise<FactRecord | null> {
    const doc = await this.col.findOne({ _id: id, workspaceId });
    return doc ? toRecord(doc) : null;
  }

  async query(filter: FactFilter, page: Page, options: { countTotal?: boolean } = {}): Promise<Paged<FactRecord>> {
    const f = where(filter);
    const window = pageOf(page);
    const [docs, total] = await Promise.all([
      window
        ? this.col.find(f).sort({ validFrom: -1, seq: -1, _id: 1 }).skip(window.skip).limit(window.limit).toArray()
        : Promise.resolve([] as FactDoc[]),
      options.countTotal === false ? Promise.resolve(-1) : this.col.countDocuments(f),
    ]);
    return { items: docs.map(toRecord), total };
  }

  async listForContext(filter: FactFilter, limit: number): Promise<ContextFact[]> {
    if (limit <= 0) return []; // limit(0) would mean no limit
    const projection = { subject: 1, subjectKey: 1, predicate: 1, predicateRaw: 1, family: 1, object: 1, objectKey: 1, validFrom: 1, sourceMemoryIds: 1 };
    const docs = await this.col.find(where(filter), { projection }).sort({ validFrom: -1, seq: -1, _id: 1 }).limit(limit).toArray();
    return docs.map((d) => ({
      id: d._id,
      subject: d.subject,
      subjectKey: d.subjectKey,
      predicate: d.predicate,
      predicateRaw: d.predicateRaw,
      family: d.family,
      object: d.object,
      objectKey: d.objectKey,
      validFrom: d.validFrom,
      sourceMemoryIds: d.sourceMemoryIds ?? [],
    }));
  }

  async findLive(scope: UserScope, subjectKey: string, predicates: string[], openAt?: string): Promise<FactRecord[]> {
    if (predicates.length === 0) return [];
    const docs = await this.col
      .find({
        workspaceId: scope.workspaceId,
        userId: scope.userId ?? null,
        agentId: scope.agentId ?? null,
        subjectKey,
        predicate: { $in: predicates },
        ...(openAt === undefined ? { invalidAt: null } : { $or: [{ invalidAt: null }, { invalidAt: { $gt: openAt } }] }),
      })
      .sort({ validFrom: 1, seq: 1, _id: 1 })
      .toArray();
    return docs.map(toRecord);
  }

  async invalidate(workspaceId: string, ids: string[], at: string, by: string): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.col.updateMany(
      { workspaceId, _id: { $in: ids }, $or: [{ invalidAt: null }, { invalidAt: { $gt: at } }] },
      { $set: { invalidAt: at, invalidatedBy: by } },
    );
    return result.modifiedCount;
  }

  async reopen(workspaceId: string, by: string): Promise<string[]> {
    const docs = await this.col.find({ workspaceId, invalidatedBy: by }, { projection: { _id: 1 } }).toArray();
    if (docs.length === 0) return [];
    await this.col.updateMany({ workspaceId, invalidatedBy: by }, { $set: { invalidAt: null, invalidatedBy: null } });
    return docs.map((d) => d._id).sort();
  }

  async confirm(workspaceId: string, id: string, token: string, source: MemoryVersionRef | null, at: string): Promise<FactRecord | null> {
    const ref = source ? refOf(source) : null;
    const addToSet: Document = { confirmations: token };
    if (source?.memoryId) addToSet.sourceMemoryIds = source.memoryId;
    if (ref) addToSet.sourceRefs = ref;
    // Compare-and-set on "token not yet recorded": a retried confirmation changes nothing.
    const confirmed = await this.col.findOneAndUpdate(
      { _id: id, workspaceId, confirmations: { $ne: token } },
      { $addToSet: addToSet, $max: { lastConfirmedAt: at } },
      { returnDocument: 'after' },
    );
    if (confirmed) return toRecord(confirmed);
    // Already confirmed by this token (or no such fact): still link the version, idempotently.
    const doc = ref
      ? await this.col.findOneAndUpdate({ _id: id, workspaceId }, { $addToSet: { sourceRefs: ref } }, { returnDocument: 'after' })
      : await this.col.findOne({ _id: id, workspaceId });
    return doc ? toRecord(doc) : null;
  }

  async listForMemory(workspaceId: string, source: MemoryVersionRef): Promise<FactRecord[]> {
    const docs = await this.col
      .find({ workspaceId, sourceRefs: refOf(source), invalidAt: null })
      .sort({ seq: 1, _id: 1 })
      .toArray();
    return docs.map(toRecord);
  }

  async setInvalidated(workspaceId: string, id: string, invalidated: string[]): Promise<void> {
    await this.col.updateOne({ _id: id, workspaceId }, { $set: { invalidated: [...invalidated] } });
  }

  async purge(filter: FactFilter): Promise<{ id: string; live: boolean }[]> {
    const removed = await findAndDelete(this.col, where({ ...filter, includeInvalidated: true, asOf: undefined }), { _id: 1, invalidAt: 1 });
    return removed.map((d) => ({ id: d._id, live: d.invalidAt === null || d.invalidAt === undefined }));
  }

  async countLive(filter: FactFilter): Promise<number> {
    return this.col.countDocuments(where({ ...filter, includeInvalidated: false, asOf: undefined }));
  }

  async countLiveByUser(workspaceId: string, agentId: string | null | undefined, userIds: string[]): Promise<Map<string, number>> {
    if (userIds.length === 0) return new Map();
    const match: Document = { workspaceId, userId: { $in: userIds }, invalidAt: null };
    if (agentId !== undefined) match.agentId = agentId;
    return this.countBy(match, '$userId');
  }

  async countLiveByAgent(workspaceId: string, agentIds: string[]): Promise<Map<string, number>> {
    if (agentIds.length === 0) return new Map();
    return this.countBy({ workspaceId, agentId: { $in: agentIds }, invalidAt: null }, '$agentId');
  }

  private async countBy(match: Document, key: string): Promise<Map<string, number>> {
    const rows = await this.col
      .aggregate<{ _id: string; n: number }>([{ $match: match }, { $group: { _id: key, n: { $sum: 1 } } }])
      .toArray();
    return new Map(rows.map((r) => [r._id, Number(r.n)]));
  }
}
