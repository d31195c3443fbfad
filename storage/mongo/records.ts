import type { Collection, Document, Filter, ObjectId, IndexDescription } from 'mongodb';
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
import { isNotImplemented } from './compat.js';
import { chunks, isDuplicateKeyError, pageOf, retryOnDuplicateKey } from './util.js';

// ---------------------------------------------------------------- workspaces

export interface WorkspaceDoc extends Omit<WorkspaceRecord, 'id'> {
  _id: string;
}

const workspaceOf = (d: WorkspaceDoc): WorkspaceRecord => ({ id: d._id, slug: d.slug, plan: d.plan, createdAt: d.createdAt });

export const workspaceIndexes: IndexDescription[] = [
  { key: { slug: 1 }, name: 'slug', unique: true },
  { key: { createdAt: 1, _id: 1 }, name: 'created' },
];

export class MongoWorkspaceRepository implements WorkspaceRepository {
  constructor(private readonly col: Collection<WorkspaceDoc>) {}

  async insert(w: WorkspaceRecord): Promise<void> {
    await this.col.insertOne({ _id: w.id, slug: w.slug, plan: w.plan, createdAt: w.createdAt });
  }
  async get(id: string): Promise<WorkspaceRecord | null> {
    const d = await this.col.findOne({ _id: id });
    return d ? workspaceOf(d) : null;
  }
  async getBySlug(slug: string): Promise<WorkspaceRecord | null> {
    const d = await this.col.findOne({ slug });
    return d ? workspaceOf(d) : null;
  }
  async list(): Promise<WorkspaceRecord[]> {
    return (await this.col.find({}).sort({ createdAt: 1, _id: 1 }).toArray()).map(workspaceOf);
  }
  async setPlan(id: string, plan: Plan): Promise<void> {
    await this.col.updateOne({ _id: id }, { $set: { plan } });
  }
}

// ---------------------------------------------------------------- api keys

export interface ApiKeyDoc extends Omit<ApiKeyRecord, 'id'> {
  _id: string;
}

const keyOf = (d: ApiKeyDoc): ApiKeyRecord => ({
  id: d._id,
  workspaceId: d.workspaceId,
  hash: d.hash,
  scopes: [...d.scopes],
  agentId: d.agentId ?? null,
  createdAt: d.createdAt,
  revokedAt: d.revokedAt ?? null,
});

export const apiKeyIndexes: IndexDescription[] = [
  { key: { hash: 1 }, name: 'hash', unique: true },
  { key: { createdAt: 1, _id: 1 }, name: 'created' },
];

export class MongoApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly col: Collection<ApiKeyDoc>) {}

  async insert(k: ApiKeyRecord): Promise<void> {
    await this.col.insertOne({
      _id: k.id,
      workspaceId: k.workspaceId,
      hash: k.hash,
      scopes: [...k.scopes],
      agentId: k.agentId ?? null,
      createdAt: k.createdAt,
      revokedAt: k.revokedAt ?? null,
    });
  }
  async getByHash(hash: string): Promise<ApiKeyRecord | null> {
    const d = await this.col.findOne({ hash });
    return d ? keyOf(d) : null;
  }
  async get(id: string): Promise<ApiKeyRecord | null> {
    const d = await this.col.findOne({ _id: id });
    return d ? keyOf(d) : null;
  }
  async list(): Promise<ApiKeyRecord[]> {
    return (await this.col.find({}).sort({ createdAt: 1, _id: 1 }).toArray()).map(keyOf);
  }
  async revoke(id: string, at: string): Promise<boolean> {
    return (await this.col.updateOne({ _id: id, revokedAt: null }, { $set: { revokedAt: at } })).modifiedCount === 1;
  }
  async count(): Promise<number> {
    return this.col.countDocuments({});
  }
}

// ---------------------------------------------------------------- agents

export interface AgentDoc {
  _id?: ObjectId;
  workspaceId: string;
  agentId: string;
  createdAt: string;
}

/**
 * Per-workspace slot document guarding the agent cap: `members` are the agents
 * holding a slot and `count` is its length. A slot is taken with one conditional
 * update (`members` lacks the agent and `count < cap`), so concurrent
 * registrations can never overshoot the cap and one agent never takes two slots.
 */
export interface AgentSlotsDoc {
  _id: string;
  count: number;
  members: string[];
}

export const agentIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, agentId: 1 }, name: 'ws_agent', unique: true },
  { key: { workspaceId: 1, createdAt: 1, agentId: 1 }, name: 'ws_created' },
];

export class MongoAgentRepository implements AgentRepository {
  constructor(
    private readonly col: Collection<AgentDoc>,
    private readonly slots: Collection<AgentSlotsDoc>,
  ) {}

  /**
   * 1. an existing agent document answers `exists`;
   * 2. otherwise take a slot: `{_id: ws, members: {$ne: agent}, count: {$lt: cap}}` -> `$push` + `$inc`;
   * 3. no slot and the agent is not a member either: `cap_exceeded`;
   * 4. insert the unique agent document; losing that insert to a concurrent
   *    registration of the same agent (duplicate key) answers `exists`.
   * A member without a document (a concurrent registration still in flight, or one
   * that crashed between 2 and 4) is completed by whoever registers it next.
   */
  async register(workspaceId: string, agentId: string, cap: number, at: string): Promise<AgentRegistration> {
    if (await this.exists(workspaceId, agentId)) return 'exists';
    let reserved = await this.reserve(workspaceId, agentId, cap);
    if (!reserved) {
      // The slot document may not have existed yet; create it if still missing and try
      // once more (another registration may have created it in the meantime, too).
      if (!(await this.slots.findOne({ _id: workspaceId }, { projection: { _id: 1 } }))) await this.initSlots(workspaceId);
      reserved = await this.reserve(workspaceId, agentId, cap);
    }
    if (!reserved) {
      const member = await this.slots.findOne({ _id: workspaceId, members: agentId }, { projection: { _id: 1 } });
      if (!member) return 'cap_exceeded';
    }
    const created = await this.insertAgent(workspaceId, agentId, at);
    if (created && !reserved) {
      // We completed someone else's slot; make sure it is still held (a concurrent remove may have freed it).
      await this.slots.updateOne({ _id: workspaceId, members: { $ne: agentId } }, { $push: { members: agentId }, $inc: { count: 1 } });
    }
    return created ? 'created' : 'exists';
  }

  private async reserve(workspaceId: string, agentId: string, cap: number): Promise<boolean> {
    const result = await this.slots.updateOne(
      { _id: workspaceId, members: { $ne: agentId }, count: { $lt: cap } },
      { $push: { members: agentId }, $inc: { count: 1 } },
    );
    return result.modifiedCount === 1;
  }

  /** First registration in a workspace: the slot document starts from the agents already stored. */
  private async initSlots(workspaceId: string): Promise<void> {
    const members = (await this.col.find({ workspaceId }, { projection: { agentId: 1 } }).toArray()).map((a) => a.agentId);
    try {
      await this.slots.insertOne({ _id: workspaceId, count: members.length, members });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // created concurrently
    }
  }

  private async insertAgent(workspaceId: string, agentId: string, at: string): Promise<boolean> {
    try {
      await this.col.insertOne({ workspaceId, agentId, createdAt: at });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async exists(workspaceId: string, agentId: string): Promise<boolean> {
    return (await this.col.countDocuments({ workspaceId, agentId }, { limit: 1 })) > 0;
  }

  async count(workspaceId: string): Promise<number> {
    return this.col.countDocuments({ workspaceId });
  }

  async list(workspaceId: string, page: Page): Promise<Paged<AgentRecord>> {
    const window = pageOf(page);
    const [docs, total] = await Promise.all([
      window
        ? this.col.find({ workspaceId }).sort({ createdAt: 1, agentId: 1 }).skip(window.skip).limit(window.limit).toArray()
        : Promise.resolve([] as AgentDoc[]),
      this.count(workspaceId),
    ]);
    return { items: docs.map((d) => ({ workspaceId: d.workspaceId, agentId: d.agentId, createdAt: d.createdAt })), total };
  }

  async remove(workspaceId: string, agentId: string): Promise<boolean> {
    const deleted = await this.col.deleteOne({ workspaceId, agentId });
    // Free the slot even when the document was already gone (heals a slot left by a crash).
    await this.slots.updateOne({ _id: workspaceId, members: agentId }, { $pull: { members: agentId }, $inc: { count: -1 } });
    return deleted.deletedCount === 1;
  }
}

// ---------------------------------------------------------------- history

export interface HistoryDoc extends Omit<HistoryEventRecord, 'id'> {
  _id: string;
  /** Insertion order (from the `counters` collection): orders events with equal `at`. */
  ord: number;
}

export interface CounterDoc {
  _id: string;
  value: number;
}

export const historyIndexes: IndexDescription[] = [{ key: { workspaceId: 1, memoryId: 1, at: 1, ord: 1 }, name: 'ws_memory_at' }];

/** Reserves `count` consecutive numbers of a counter document; returns the first. */
async function reserve(col: Collection<CounterDoc>, name: string, count: number): Promise<number> {
  const doc = await retryOnDuplicateKey(() =>
    col.findOneAndUpdate({ _id: name }, { $inc: { value: count } }, { upsert: true, returnDocument: 'after' }),
  );
  if (!doc) throw new Error(`counter ${name} was not returned by its upsert`);
  return Number(doc.value) - count + 1;
}

export class MongoHistoryRepository implements HistoryRepository {
  constructor(
    private readonly col: Collection<HistoryDoc>,
    private readonly counters: Collection<CounterDoc>,
  ) {}

  async append(events: HistoryEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    const first = await reserve(this.counters, 'history', events.length);
    const docs: HistoryDoc[] = events.map((e, i) => ({
      _id: e.id,
      workspaceId: e.workspaceId,
      memoryId: e.memoryId,
      event: e.event,
      at: e.at,
      factId: e.factId ?? null,
      fact: e.fact ?? null,
      ord: first + i,
    }));
    try {
      // Unordered: every new event is written even when some ids already exist.
      await this.col.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error; // insert-if-absent: existing events win
    }
  }

  async list(workspaceId: string, memoryId: string): Promise<HistoryEventRecord[]> {
    const docs = await this.col.find({ workspaceId, memoryId }).sort({ at: 1, ord: 1 }).toArray();
    return docs.map((d) => ({
      id: d._id,
      workspaceId: d.workspaceId,
      memoryId: d.memoryId,
      event: d.event,
      at: d.at,
      factId: d.factId ?? null,
      fact: d.fact ?? null,
    }));
  }

  async purgeMemories(workspaceId: string, memoryIds: string[]): Promise<void> {
    for (const part of chunks(memoryIds)) await this.col.deleteMany({ workspaceId, memoryId: { $in: part } });
  }

  async remove(workspaceId: string, ids: string[]): Promise<void> {
    for (const part of chunks(ids)) await this.col.deleteMany({ workspaceId, _id: { $in: part } });
  }
}

// ---------------------------------------------------------------- audit

export interface AuditDoc extends Omit<AuditRecord, 'id' | 'meta'> {
  _id: string;
  /** JSON text, for an exact round trip whatever keys the meta has. */
  meta: string;
}

export const auditIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, ts: -1, _id: -1 }, name: 'ws_ts' },
  { key: { workspaceId: 1, userId: 1, ts: -1 }, name: 'ws_user_ts' },
  { key: { workspaceId: 1, action: 1, ts: -1 }, name: 'ws_action_ts' },
];

export class MongoAuditRepository implements AuditRepository {
  constructor(private readonly col: Collection<AuditDoc>) {}

  async append(a: AuditRecord): Promise<void> {
    await this.col.insertOne({
      _id: a.id,
      workspaceId: a.workspaceId,
      ts: a.ts,
      actor: a.actor,
      action: a.action,
      result: a.result,
      userId: a.userId ?? null,
      targetId: a.targetId ?? null,
      meta: JSON.stringify(a.meta ?? {}),
    });
  }

  async list(filter: AuditFilter, page: Page): Promise<Paged<AuditRecord>> {
    const f: Filter<AuditDoc> = { workspaceId: filter.workspaceId };
    if (filter.userId !== undefined) f.userId = filter.userId;
    if (filter.action !== undefined) f.action = filter.action;
    const ts: Document = {};
    if (filter.since) ts.$gte = filter.since;
    if (filter.until) ts.$lte = filter.until;
    if (Object.keys(ts).length > 0) f.ts = ts;
    const window = pageOf(page);
    const [docs, total] = await Promise.all([
      window
        ? this.col.find(f).sort({ ts: -1, _id: -1 }).skip(window.skip).limit(window.limit).toArray()
        : Promise.resolve([] as AuditDoc[]),
      this.col.countDocuments(f),
    ]);
    return {
      items: docs.map((d) => ({
        id: d._id,
        workspaceId: d.workspaceId,
        ts: d.ts,
        actor: d.actor,
        action: d.action,
        result: d.result,
        userId: d.userId ?? null,
        targetId: d.targetId ?? null,
        meta: JSON.parse(d.meta) as Record<string, unknown>,
      })),
      total,
    };
  }
}

// ---------------------------------------------------------------- batches

export interface BatchDoc extends Omit<BatchRecord, 'id' | 'memoryIds'> {
  _id: string;
  memoryIds: (string | null)[];
  /** Item index -> ok, recorded once per index (the SQLite store's batch_items). */
  outcomes: Record<string, boolean>;
}

const batchOf = (d: BatchDoc): BatchRecord => ({
  id: d._id,
  workspaceId: d.workspaceId,
  status: d.status,
  received: d.received,
  imported: d.imported,
  failed: d.failed,
  // Sorted here too: FerretDB 1.x accepts `$push` with `$sort` but ignores the `$sort` (compat.ts).
  errors: (d.errors ?? []).map((e) => ({ index: e.index, memory_id: e.memory_id ?? null, message: e.message })).sort((a, b) => a.index - b.index),
  memoryIds: [...(d.memoryIds ?? [])] as string[],
  createdAt: d.createdAt,
  completedAt: d.completedAt ?? null,
});

export const batchIndexes: IndexDescription[] = [
  { key: { workspaceId: 1, memoryIds: 1 }, name: 'ws_memory' },
  { key: { workspaceId: 1, 'errors.memory_id': 1 }, name: 'ws_error_memory' },
];

export class MongoBatchRepository implements BatchRepository {
  constructor(private readonly col: Collection<BatchDoc>) {}

  async insert(b: BatchRecord): Promise<void> {
    await this.col.insertOne({
      _id: b.id,
      workspaceId: b.workspaceId,
      status: b.status,
      received: b.received,
      imported: b.imported,
      failed: b.failed,
      errors: b.errors.map((e) => ({ index: e.index, memory_id: e.memory_id ?? null, message: e.message })),
      memoryIds: [...b.memoryIds],
      createdAt: b.createdAt,
      completedAt: b.completedAt ?? null,
      outcomes: {},
    });
  }

  async get(workspaceId: string, id: string): Promise<BatchRecord | null> {
    const d = await this.col.findOne({ _id: id, workspaceId });
    return d ? batchOf(d) : null;
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    await this.col.deleteOne({ _id: id, workspaceId });
  }

  /**
   * Step 1 records the item with a compare-and-set on "outcomes.<index> is absent"
   * (so a replay changes nothing) and bumps the counter in the same update; step 2
   * completes the batch once imported + failed reaches received. Step 2 is re-run
   * by any later report, so a crash between the steps cannot leave it incomplete.
   */
  async recordItem(
    workspaceId: string,
    id: string,
    index: number,
    outcome: { ok: true } | { ok: false; error: BatchItemError },
    at: string,
  ): Promise<BatchRecord | null> {
    if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`batch item index must be a non-negative integer, got ${index}`);
    const field = `outcomes.${index}`;
    const update: Document = { $set: { [field]: outcome.ok }, $inc: outcome.ok ? { imported: 1 } : { failed: 1 } };
    if (!outcome.ok) {
      const e = outcome.error;
      update.$push = { errors: { $each: [{ index: e.index, memory_id: e.memory_id ?? null, message: e.message }], $sort: { index: 1 } } };
    }
    let doc =
      (await this.col.findOneAndUpdate({ _id: id, workspaceId, [field]: { $exists: false } } as Filter<BatchDoc>, update, {
        returnDocument: 'after',
      })) ?? (await this.col.findOne({ _id: id, workspaceId }));
    if (!doc) return null;
    if (doc.status !== 'completed' && doc.imported + doc.failed >= doc.received) {
      doc =
        (await this.col.findOneAndUpdate(
          { _id: id, workspaceId, status: { $ne: 'completed' } },
          { $set: { status: 'completed', completedAt: at } },
          { returnDocument: 'after' },
        )) ??
        (await this.col.findOne({ _id: id, workspaceId })) ??
        doc;
    }
    return batchOf(doc);
  }

  async listOpenWith(workspaceId: string, memoryIds: string[]): Promise<BatchRecord[]> {
    const found = new Map<string, BatchRecord>();
    for (const part of chunks(memoryIds)) {
      for (const d of await this.col.find({ workspaceId, status: 'processing', memoryIds: { $in: part } }).toArray()) found.set(d._id, batchOf(d));
    }
    return [...found.values()];
  }

  async forgetMemories(workspaceId: string, memoryIds: string[]): Promise<void> {
    for (const part of chunks(memoryIds)) {
      try {
        await this.col.updateMany(
          { workspaceId, memoryIds: { $in: part } },
          { $set: { 'memoryIds.$[m]': null } },
          { arrayFilters: [{ m: { $in: part } }] },
        );
        await this.col.updateMany(
          { workspaceId, 'errors.memory_id': { $in: part } },
          { $set: { 'errors.$[e].memory_id': null } },
          { arrayFilters: [{ 'e.memory_id': { $in: part } }] },
        );
      } catch (error) {
        if (!isNotImplemented(error)) throw error;
        await this.forgetWithoutArrayFilters(workspaceId, part);
      }
    }
  }

  /**
   * For servers without `arrayFilters` (FerretDB 1.x): reads each affected batch and rewrites both arrays.
   * Not atomic with the read: an item error recorded for the same batch in between would be overwritten. Erasure
   * runs after the user's queued work is removed, so that window is narrow; on MongoDB the path above is used.
   */
  private async forgetWithoutArrayFilters(workspaceId: string, ids: string[]): Promise<void> {
    const gone = new Set(ids);
    const affected = await this.col
      .find({ workspaceId, $or: [{ memoryIds: { $in: ids } }, { 'errors.memory_id': { $in: ids } }] }, { projection: { _id: 1 } })
      .toArray();
    for (const { _id } of affected) {
      const d = await this.col.findOne({ _id, workspaceId });
      if (!d) continue;
      await this.col.updateOne(
        { _id, workspaceId },
        {
          $set: {
            memoryIds: (d.memoryIds ?? []).map((m) => (m !== null && gone.has(m) ? null : m)),
            errors: (d.errors ?? []).map((e) => (e.memory_id && gone.has(e.memory_id) ? { ...e, memory_id: null } : e)),
          },
        },
      );
    }
  }
}

// ---------------------------------------------------------------- locks

export interface LockDoc {
  _id: string;
  owner: string;
  /** A Date so a TTL index can sweep long-expired leases. */
  expiresAt: Date;
}

/** Expired leases are free anyway; the TTL monitor just keeps the collection small. */
export const lockIndexes: IndexDescription[] = [{ key: { expiresAt: 1 }, name: 'expires_ttl', expireAfterSeconds: 3600 }];

export class MongoLockRepository implements LockRepository {
  constructor(private readonly col: Collection<LockDoc>) {}

  /**
   * Conditional upsert: matches the lease when it is expired or already ours and
   * takes it; when it is held by another owner the filter misses, the upsert tries
   * to insert a second document with the same `_id`, and the duplicate-key error
   * means "not acquired".
   */
  async tryAcquire(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    try {
      await this.col.updateOne(
        { _id: key, $or: [{ expiresAt: { $lt: new Date(now) } }, { owner }] },
        { $set: { owner, expiresAt: new Date(now + ttlMs) } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async release(key: string, owner: string): Promise<void> {
    await this.col.deleteOne({ _id: key, owner });
  }
}

// ---------------------------------------------------------------- sequences and settings

export class MongoSequenceRepository implements SequenceRepository {
  constructor(private readonly col: Collection<CounterDoc>) {}

  async next(name: string, count = 1): Promise<number> {
    return reserve(this.col, name, count);
  }
}

export interface SettingDoc {
  _id: string;
  value: string;
}

export class MongoSettings {
  constructor(private readonly col: Collection<SettingDoc>) {}

  async get(key: string): Promise<string | null> {
    return (await this.col.findOne({ _id: key }))?.value ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    await retryOnDuplicateKey(() => this.col.updateOne({ _id: key }, { $set: { value } }, { upsert: true }));
  }
}
