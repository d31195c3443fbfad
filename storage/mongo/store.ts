import { MongoClient, type Collection, type Db, type Document, type IndexDescription, type MongoClientOptions } from 'mongodb';
import type { Store, WriteRecords } from '../types.js';
import { detectServer, isNotImplemented, serializeUpdates, type ServerTraits } from './compat.js';
import { MongoEntityRepository, entityIndexes, type EntityDoc } from './entities.js';
import { MongoFactRepository, factIndexes, type FactDoc } from './facts.js';
import { MongoMemoryRepository, memoryIndexes, type MemoryDoc } from './memories.js';
import {
  MongoAgentRepository,
  MongoApiKeyRepository,
  MongoAuditRepository,
  MongoBatchRepository,
  MongoHistoryRepository,
  MongoLockRepository,
  MongoSequenceRepository,
  MongoSettings,
  MongoWorkspaceRepository,
  agentIndexes,
  apiKeyIndexes,
  auditIndexes,
  batchIndexes,
  historyIndexes,
  lockIndexes,
  workspaceIndexes,
  type AgentDoc,
  type AgentSlotsDoc,
  type ApiKeyDoc,
  type AuditDoc,
  type BatchDoc,
  type CounterDoc,
  type HistoryDoc,
  type LockDoc,
  type SettingDoc,
  type WorkspaceDoc,
} from './records.js';
import { MongoWorkspaceTransfer } from './transfer.js';

export interface MongoStoreOptions {
  /** Prefix for every collection name, to share one database between deployments. Default none. */
  collectionPrefix?: string;
  /** Extra MongoClient options for `open` (timeouts, TLS, pool size…). */
  clientOptions?: MongoClientOptions;
}

/** Collection names (before the prefix). */
export const COLLECTIONS = {
  workspaces: 'workspaces',
  keys: 'api_keys',
  agents: 'agents',
  agentSlots: 'agent_slots',
  memories: 'memories',
  facts: 'facts',
  entities: 'entities',
  history: 'history',
  counters: 'counters',
  audit: 'audit',
  batches: 'batches',
  locks: 'locks',
  sequences: 'sequences',
  settings: 'settings',
  /** Only on servers without atomic read-modify-write (compat.ts). */
  writeLocks: 'write_locks',
} as const;

/**
 * The `Store` on MongoDB (4.4+; 5.0+ recommended for its majority write concern
 * default). One collection per repository, no multi-document transactions, so a
 * standalone server works as well as a replica set. See storage/README.md.
 */
export class MongoStore implements Store {
  readonly kind = 'mongodb' as const;
  readonly workspaces: MongoWorkspaceRepository;
  readonly keys: MongoApiKeyRepository;
  readonly agents: MongoAgentRepository;
  readonly memories: MongoMemoryRepository;
  readonly facts: MongoFactRepository;
  readonly entities: MongoEntityRepository;
  readonly history: MongoHistoryRepository;
  readonly audit: MongoAuditRepository;
  readonly batches: MongoBatchRepository;
  readonly locks: MongoLockRepository;
  readonly sequences: MongoSequenceRepository;
  readonly settings: MongoSettings;
  readonly transfer: MongoWorkspaceTransfer;

  /** What the server lacks (FerretDB), see compat.ts. */
  readonly traits: ServerTraits;
  private readonly indexPlan: [Collection<any>, IndexDescription[]][];

  /**
   * Wraps an existing database handle; `close()` closes `client` only when
   * `ownsClient` is true. Call `ensureIndexes()` (or use `MongoStore.open`) before use.
   */
  constructor(
    readonly db: Db,
    private readonly client: MongoClient | null = null,
    private readonly ownsClient = false,
    options: Pick<MongoStoreOptions, 'collectionPrefix'> & { traits?: ServerTraits } = {},
  ) {
    const prefix = options.collectionPrefix ?? '';
    this.traits = options.traits ?? { serializeUpdates: false, lookupIdsOneByOne: false, ferretdb: null };
    // ignoreUndefined: a stray `undefined` must never be written (or matched) as null.
    const plain = <T extends Document>(name: string) => db.collection<T>(`${prefix}${name}`, { ignoreUndefined: true });
    const writeLocks = plain<any>(COLLECTIONS.writeLocks);
    const col = <T extends Document>(name: string) =>
      this.traits.serializeUpdates ? serializeUpdates(plain<T>(name), writeLocks) : plain<T>(name);

    const workspaces = col<WorkspaceDoc>(COLLECTIONS.workspaces);
    const keys = col<ApiKeyDoc>(COLLECTIONS.keys);
    const agents = col<AgentDoc>(COLLECTIONS.agents);
    const agentSlots = col<AgentSlotsDoc>(COLLECTIONS.agentSlots);
    const memories = col<MemoryDoc>(COLLECTIONS.memories);
    const facts = col<FactDoc>(COLLECTIONS.facts);
    const entities = col<EntityDoc>(COLLECTIONS.entities);
    const history = col<HistoryDoc>(COLLECTIONS.history);
    const counters = col<CounterDoc>(COLLECTIONS.counters);
    const audit = col<AuditDoc>(COLLECTIONS.audit);
    const batches = col<BatchDoc>(COLLECTIONS.batches);
    const locks = col<LockDoc>(COLLECTIONS.locks);
    const sequences = col<CounterDoc>(COLLECTIONS.sequences);
    const settings = col<SettingDoc>(COLLECTIONS.settings);

    this.workspaces = new MongoWorkspaceRepository(workspaces);
    this.keys = new MongoApiKeyRepository(keys);
    this.agents = new MongoAgentRepository(agents, agentSlots);
    this.memories = new MongoMemoryRepository(memories, this.traits);
    this.facts = new MongoFactRepository(facts);
    this.entities = new MongoEntityRepository(entities);
    this.history = new MongoHistoryRepository(history, counters);
    this.audit = new MongoAuditRepository(audit);
    this.batches = new MongoBatchRepository(batches);
    this.locks = new MongoLockRepository(locks);
    this.sequences = new MongoSequenceRepository(sequences);
    this.settings = new MongoSettings(settings);
    this.transfer = new MongoWorkspaceTransfer({ workspaces, keys, agents, memories, facts, entities, history, audit }, this.history);

    this.indexPlan = [
      [workspaces, workspaceIndexes],
      [keys, apiKeyIndexes],
      [agents, agentIndexes],
      [memories, memoryIndexes],
      [facts, factIndexes],
      [entities, entityIndexes],
      [history, historyIndexes],
      [audit, auditIndexes],
      [batches, batchIndexes],
      [locks, lockIndexes],
    ];
  }

  /**
   * Connects, creates the indexes (idempotent: createIndexes with the same names and
   * specs is a no-op) and returns the store. `close()` closes the connection.
   */
  static async open(url: string, dbName: string, options: MongoStoreOptions = {}): Promise<MongoStore> {
    const client = new MongoClient(url, { ignoreUndefined: true, ...options.clientOptions });
    try {
      await client.connect();
      const db = client.db(dbName, { ignoreUndefined: true });
      const store = new MongoStore(db, client, true, { ...options, traits: await detectServer(db) });
      await store.ensureIndexes();
      return store;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  /** Creates every index the repositories' queries need (and the unique ones they rely on). */
  async ensureIndexes(): Promise<void> {
    await Promise.all(this.indexPlan.map(([collection, indexes]) => (indexes.length ? this.createIndexes(collection, indexes) : null)));
  }

  /**
   * One index per createIndexes command: FerretDB 1.x panics (and drops the connection) on a createIndexes with
   * two or more indexes that already exist, so a second start would fail there. TTL indexes only keep housekeeping
   * collections small (expired leases are free anyway); a server without them (FerretDB 1.x answers
   * NotImplemented) gets the same index without the TTL, and the expired documents are swept here at every start.
   */
  private async createIndexes(collection: Collection<any>, indexes: IndexDescription[]): Promise<void> {
    for (const index of indexes) {
      try {
        await collection.createIndexes([index]);
      } catch (error) {
        if (!(isNotImplemented(error) && index.expireAfterSeconds !== undefined)) throw error;
        const { expireAfterSeconds, ...withoutTtl } = index;
        await collection.createIndexes([withoutTtl]);
        const [field] = Object.keys(index.key as Record<string, unknown>);
        await collection.deleteMany({ [field]: { $lt: new Date(Date.now() - expireAfterSeconds * 1000) } });
      }
    }
  }

  /** Deleted documents leave WiredTiger's files as pages are reused or on `compact`; nothing to do per erasure. */
  async scrubErased(): Promise<void> {}

  async acknowledgedNotStored(): Promise<number> {
    return 0;
  }

  /** No transaction: records first, in this order (a failure leaves the caller to withdraw them). */
  async acceptWrites({ batch, memories, events }: WriteRecords): Promise<void> {
    if (batch) await this.batches.insert(batch);
    await this.memories.insertMany(memories);
    await this.history.append(events);
  }

  /** No multi-document transactions here: the writes of a unit are idempotent instead. */
  async writeUnit<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }

  async ping(): Promise<void> {
    await this.db.command({ ping: 1 });
  }

  async close(): Promise<void> {
    if (this.ownsClient && this.client) await this.client.close();
  }
}
