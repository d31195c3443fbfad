/**
 * Document-shaped repositories. Every backend (embedded SQLite, MongoDB)
 * implements these; the shared contract suite in storage/contract runs
 * against each. Rules that keep them portable:
 * - one record type per repository, no cross-repository joins;
 * - single-document updates are atomic and conditional (compare-and-set);
 * - multi-document work is written to be idempotent instead of transactional.
 */
import type { EntityType, PredicateFamily, SubjectType, Tense } from '../pipeline/types.js';

export type Plan = 'hobby' | 'developer' | 'team' | 'scale';
export type Scope = 'memories:read' | 'memories:write';
export const ALL_SCOPES: Scope[] = ['memories:read', 'memories:write'];

export interface Page {
  limit: number;
  offset: number;
}

export interface Paged<T> {
  items: T[];
  total: number;
}

export interface WorkspaceRecord {
  id: string;
  slug: string;
  plan: Plan;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  workspaceId: string;
  /** sha256 hex of the secret; the secret itself is never stored. */
  hash: string;
  scopes: Scope[];
  /** Default agent namespace; a key with one is confined to it. */
  agentId: string | null;
  createdAt: string;
  revokedAt: string | null;
}

export interface AgentRecord {
  workspaceId: string;
  agentId: string;
  createdAt: string;
}

export type MemoryStatus = 'processing' | 'ready' | 'error';

export interface MemoryRecord {
  id: string;
  workspaceId: string;
  userId: string | null;
  agentId: string | null;
  runId: string | null;
  content: string;
  metadata: Record<string, unknown>;
  status: MemoryStatus;
  error: string | null;
  /** Content version: 1 on add, +1 on each update. Pipeline results for older versions are discarded. */
  version: number;
  /** Write sequence of the latest version; orders facts with equal valid_from. */
  seq: number;
  /** The add's `timestamp` (becomes facts' valid_from), else null. */
  referenceTime: string | null;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

export interface MemoryFilter {
  workspaceId: string;
  userId?: string;
  /** `null` selects the default namespace; undefined selects all namespaces. */
  agentId?: string | null;
  runId?: string;
  status?: MemoryStatus;
  ids?: string[];
  /** Include forgotten stubs; default false. */
  includeForgotten?: boolean;
}

export interface MemoryVersionSummary {
  id: string;
  version: number;
  /** Not forgotten. */
  active: boolean;
}

export interface ScopeSummary {
  key: string;
  memories: number;
  lastActive: string;
}

export interface MemoryRepository {
  insert(memory: MemoryRecord): Promise<void>;
  /** Inserts a batch's memories in order, in one round trip (one transaction on SQLite). */
  insertMany(memories: MemoryRecord[]): Promise<void>;
  get(workspaceId: string, id: string): Promise<MemoryRecord | null>;
  getMany(workspaceId: string, ids: string[]): Promise<MemoryRecord[]>;
  /**
   * For each of these memories, the ready memories written just before and just after it in its scope (same agent
   * and user), by write order: the turns around a turn of a conversation. Forgotten memories are skipped. One
   * entry per memory given, in their order (a memory of another workspace has none).
   */
  neighbours(workspaceId: string, memories: MemoryRecord[]): Promise<MemoryRecord[][]>;
  /** Newest first (created_at desc, id desc). */
  list(filter: MemoryFilter, page: Page): Promise<Paged<MemoryRecord>>;
  count(filter: MemoryFilter): Promise<number>;
  /**
   * Compare-and-set update: applies `patch` only while the memory is not forgotten and,
   * when given, its current `version` equals `expectVersion`. Returns the updated record or null.
   */
  update(
    workspaceId: string,
    id: string,
    patch: Partial<Pick<MemoryRecord, 'content' | 'status' | 'error' | 'version' | 'seq' | 'updatedAt' | 'deletedAt'>> & {
      content?: string;
    },
    expectVersion?: number,
  ): Promise<MemoryRecord | null>;
  /** Forgotten stub: drops content, keeps id, scope and timestamps. */
  forget(workspaceId: string, id: string, at: string): Promise<MemoryRecord | null>;
  /** Each matching memory's id, latest version and whether it is active (not forgotten), changing nothing. */
  versions(filter: MemoryFilter): Promise<MemoryVersionSummary[]>;
  /** Physically removes matching memories; returns each removed record's id, latest version and whether it was active. */
  purge(filter: MemoryFilter): Promise<MemoryVersionSummary[]>;
  /**
   * Whether a write in this user scope with a smaller write sequence is still
   * processing (and was written after `since`): commits wait for it, so one scope
   * commits in arrival order whatever the worker concurrency.
   */
  pendingBefore(scope: UserScope, seq: number, since: string): Promise<boolean>;
  summarizeByUser(workspaceId: string, agentId: string | null | undefined, page: Page): Promise<Paged<ScopeSummary>>;
  summarizeByAgent(workspaceId: string, agentIds: string[]): Promise<ScopeSummary[]>;
}

export interface FactRecord {
  id: string;
  workspaceId: string;
  userId: string | null;
  agentId: string | null;
  runId: string | null;
  subject: string;
  subjectType: SubjectType;
  predicate: string;
  predicateRaw: string;
  family: PredicateFamily;
  object: string;
  /** Normalised object used for confirmation matching and `entity` lookups. */
  objectKey: string;
  /** Lower-cased subject for `entity` / `subject` lookups. */
  subjectKey: string;
  objectIsLiteral: boolean;
  tense: Tense;
  confidence: number;
  validFrom: string;
  /** False when the text gave no date: validFrom is then only when the fact was recorded. */
  validFromStated: boolean;
  invalidAt: string | null;
  /** Fact id that superseded this one, or a reason such as `memory_deleted`; null while live. */
  invalidatedBy: string | null;
  /** Ids of earlier facts this fact superseded. */
  invalidated: string[];
  /** Distinct confirmation tokens (source memory + version); observation_count is its length. */
  confirmations: string[];
  lastConfirmedAt: string;
  sourceMemoryId: string | null;
  sourceMemoryIds: string[];
  /** Memory content version the fact was extracted from. */
  sourceVersion: number;
  seq: number;
  createdAt: string;
}

/** What the context block shows of a fact and ranks it by. */
export type ContextFact = Pick<FactRecord, 'id' | 'subject' | 'subjectKey' | 'predicate' | 'predicateRaw' | 'family' | 'object' | 'objectKey' | 'validFrom' | 'sourceMemoryIds'>;

export interface FactFilter {
  workspaceId: string;
  userId?: string | null;
  agentId?: string | null;
  runId?: string;
  subjectKey?: string;
  /** Subject key or object key is one of these (an entity mentioned on either side, under any of its names). */
  entity?: { subjectKeys: string[]; objectKeys: string[] };
  predicate?: string;
  family?: PredicateFamily;
  /** Facts valid at this instant: valid_from <= asOf and (invalid_at null or > asOf). */
  asOf?: string;
  includeInvalidated?: boolean;
  sourceMemoryId?: string;
  ids?: string[];
}

export interface MemoryVersionRef {
  memoryId: string;
  version: number;
}

/** The user scope within which contradictions are checked. */
export interface UserScope {
  workspaceId: string;
  agentId: string | null;
  userId: string | null;
}

export interface FactRepository {
  /** Insert-if-absent by id (so a retried commit never duplicates). Returns true when inserted. */
  insert(fact: FactRecord): Promise<boolean>;
  get(workspaceId: string, id: string): Promise<FactRecord | null>;
  /** Ordered by valid_from desc, then seq desc, then id. `total` is -1 when `countTotal` is false (hot read paths skip the count). */
  query(filter: FactFilter, page: Page, options?: { countTotal?: boolean }): Promise<Paged<FactRecord>>;
  /** The first `limit` facts of `query`'s order, with only the fields context uses (it reads them on every request). */
  listForContext(filter: FactFilter, limit: number): Promise<ContextFact[]>;
  /**
   * Live facts in one user scope with this subject and any of these predicates. With `openAt`, also
   * facts whose (future) end is after that instant, e.g. a current home a planned move will end.
   */
  findLive(scope: UserScope, subjectKey: string, predicates: string[], openAt?: string): Promise<FactRecord[]>;
  /** Ends facts at `at`: those still live, and those set to end later than `at`. Returns how many changed. */
  invalidate(workspaceId: string, ids: string[], at: string, by: string): Promise<number>;
  /** Reopens the facts ended by `by` (a cancelled plan): invalid_at and invalidated_by back to null. Returns their ids. */
  reopen(workspaceId: string, by: string): Promise<string[]>;
  /** Adds a confirmation token (idempotent) and bumps last_confirmed_at; links the confirming memory version. */
  confirm(workspaceId: string, id: string, token: string, source: MemoryVersionRef | null, at: string): Promise<FactRecord | null>;
  /** Live facts extracted from (or confirmed by) one version of a memory. */
  listForMemory(workspaceId: string, source: MemoryVersionRef): Promise<FactRecord[]>;
  /** Corrects a live fact's invalidated list after the fact was inserted (idempotent). */
  setInvalidated(workspaceId: string, id: string, invalidated: string[]): Promise<void>;
  purge(filter: FactFilter): Promise<{ id: string; live: boolean }[]>;
  countLive(filter: FactFilter): Promise<number>;
  countLiveByUser(workspaceId: string, agentId: string | null | undefined, userIds: string[]): Promise<Map<string, number>>;
  countLiveByAgent(workspaceId: string, agentIds: string[]): Promise<Map<string, number>>;
}

export interface EntityRecord {
  id: string;
  workspaceId: string;
  agentId: string | null;
  userId: string | null;
  canonical: string;
  name: string;
  type: EntityType;
  aliases: string[];
  memoryIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface EntityRepository {
  /** Merges by (scope, canonical): adds aliases and memory ids idempotently. */
  upsert(scope: UserScope, entity: { canonical: string; name: string; type: EntityType; aliases: string[] }, memoryId: string, at: string): Promise<void>;
  find(scope: Partial<UserScope> & { workspaceId: string }, canonical: string): Promise<EntityRecord[]>;
  /** Entities whose canonical key or one of whose aliases equals `key` (lower-cased), e.g. "sister" → Anna. */
  resolve(scope: Partial<UserScope> & { workspaceId: string }, key: string): Promise<EntityRecord[]>;
  listByMemory(workspaceId: string, memoryId: string): Promise<EntityRecord[]>;
  /** Removes a memory from entities' links; entities left with no memory are deleted. */
  unlinkMemory(workspaceId: string, memoryId: string): Promise<void>;
  purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<number>;
}

export type HistoryEventKind = 'created' | 'updated' | 'fact_extracted' | 'fact_invalidated' | 'deleted';

export interface HistoryEventRecord {
  id: string;
  workspaceId: string;
  memoryId: string;
  event: HistoryEventKind;
  at: string;
  factId: string | null;
  fact: string | null;
}

export interface HistoryRepository {
  /** Insert-if-absent by id. */
  append(events: HistoryEventRecord[]): Promise<void>;
  /** Oldest first. */
  list(workspaceId: string, memoryId: string): Promise<HistoryEventRecord[]>;
  purgeMemories(workspaceId: string, memoryIds: string[]): Promise<void>;
  /** Removes these events of a workspace (an event of a change that was withdrawn). */
  remove(workspaceId: string, ids: string[]): Promise<void>;
}

export interface AuditRecord {
  id: string;
  workspaceId: string;
  ts: string;
  actor: string;
  action: string;
  result: string;
  userId: string | null;
  targetId: string | null;
  meta: Record<string, unknown>;
}

export interface AuditFilter {
  workspaceId: string;
  userId?: string;
  action?: string;
  since?: string;
  until?: string;
}

export interface AuditRepository {
  append(record: AuditRecord): Promise<void>;
  /** Newest first. */
  list(filter: AuditFilter, page: Page): Promise<Paged<AuditRecord>>;
}

export type BatchStatus = 'processing' | 'completed';

export interface BatchItemError {
  index: number;
  memory_id: string | null;
  message: string;
}

export interface BatchRecord {
  id: string;
  workspaceId: string;
  status: BatchStatus;
  received: number;
  imported: number;
  failed: number;
  errors: BatchItemError[];
  /** Memory ids in arrival order. */
  memoryIds: string[];
  createdAt: string;
  completedAt: string | null;
}

export interface BatchRepository {
  insert(batch: BatchRecord): Promise<void>;
  get(workspaceId: string, id: string): Promise<BatchRecord | null>;
  /** Deletes a batch record (a batch withdrawn before any of it was queued). */
  remove(workspaceId: string, id: string): Promise<void>;
  /** Records one item's outcome exactly once (idempotent per index); completes the batch when all are in. */
  recordItem(workspaceId: string, id: string, index: number, outcome: { ok: true } | { ok: false; error: BatchItemError }, at: string): Promise<BatchRecord | null>;
  /** Batches of a workspace still `processing` that hold any of these memory ids. */
  listOpenWith(workspaceId: string, memoryIds: string[]): Promise<BatchRecord[]>;
  /** Drops erased memory ids from batch records of a workspace (content-free, but ids of erased data). */
  forgetMemories(workspaceId: string, memoryIds: string[]): Promise<void>;
}

export interface WorkspaceRepository {
  insert(workspace: WorkspaceRecord): Promise<void>;
  get(id: string): Promise<WorkspaceRecord | null>;
  getBySlug(slug: string): Promise<WorkspaceRecord | null>;
  list(): Promise<WorkspaceRecord[]>;
  setPlan(id: string, plan: Plan): Promise<void>;
}

export interface ApiKeyRepository {
  insert(key: ApiKeyRecord): Promise<void>;
  getByHash(hash: string): Promise<ApiKeyRecord | null>;
  get(id: string): Promise<ApiKeyRecord | null>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(id: string, at: string): Promise<boolean>;
  count(): Promise<number>;
}

export type AgentRegistration = 'exists' | 'created' | 'cap_exceeded';

export interface AgentRepository {
  /** Atomically registers a new agent namespace unless the workspace already has `cap` agents. */
  register(workspaceId: string, agentId: string, cap: number, at: string): Promise<AgentRegistration>;
  exists(workspaceId: string, agentId: string): Promise<boolean>;
  count(workspaceId: string): Promise<number>;
  list(workspaceId: string, page: Page): Promise<Paged<AgentRecord>>;
  remove(workspaceId: string, agentId: string): Promise<boolean>;
}

/** Cross-process lease used to serialise commits within one user scope. */
export interface LockRepository {
  /** Takes the lease if free or expired. */
  tryAcquire(key: string, owner: string, ttlMs: number): Promise<boolean>;
  release(key: string, owner: string): Promise<void>;
}

export interface SequenceRepository {
  /** Reserves `count` consecutive numbers for a named counter; returns the first. */
  next(name: string, count?: number): Promise<number>;
}

/**
 * One record of a workspace as workspace export and restore carry it, in the record shapes above (so a
 * record read from one backend is written to the other unchanged). `fact.sourceRefs` are the memory
 * versions (`memoryId@version`) that extracted or confirmed the fact: what `listForMemory` finds it by.
 */
export type TransferRecord =
  | { kind: 'workspace'; record: WorkspaceRecord }
  | { kind: 'agent'; record: AgentRecord }
  | { kind: 'key'; record: ApiKeyRecord }
  | { kind: 'memory'; record: MemoryRecord }
  | { kind: 'history'; record: HistoryEventRecord }
  | { kind: 'fact'; record: FactRecord; sourceRefs: string[] }
  | { kind: 'entity'; record: EntityRecord }
  | { kind: 'audit'; record: AuditRecord };

export type TransferKind = TransferRecord['kind'];

/** The order `read` yields kinds in (and restore writes them in: the workspace record, first here, is written last). */
export const TRANSFER_KINDS: TransferKind[] = ['workspace', 'agent', 'key', 'memory', 'history', 'fact', 'entity', 'audit'];

/** A whole workspace's records, read and written verbatim (ids, timestamps, versions, sequence numbers). */
export interface WorkspaceTransfer {
  /**
   * Every record of one workspace, kind by kind in TRANSFER_KINDS order; within a kind in a stable order
   * (history: per memory oldest first as `history.list` orders it, so writing it back in this order keeps it).
   * Batches (bulk-import progress), queued jobs, locks and vectors are not part of it.
   */
  read(workspaceId: string): AsyncIterable<TransferRecord>;
  /** True when nothing of the workspace is stored: no workspace record (by id or by `slug`) and no record of any other kind. */
  isEmpty(workspaceId: string, slug: string): Promise<boolean>;
  /**
   * Writes records exactly as given, insert-if-absent by id (a repeated write changes nothing, so an interrupted
   * restore can be run again). SQLite writes one call in one transaction. Entities keep their ids and links,
   * facts their source refs, agents their creation time (outside any cap).
   */
  write(records: TransferRecord[]): Promise<void>;
}

/** A new write's records as the API accepts it: its memories, their `created` events, and its batch. */
export interface WriteRecords {
  memories: MemoryRecord[];
  events: HistoryEventRecord[];
  batch?: BatchRecord;
}

export interface Store {
  readonly kind: 'sqlite' | 'mongodb';
  transfer: WorkspaceTransfer;
  workspaces: WorkspaceRepository;
  keys: ApiKeyRepository;
  agents: AgentRepository;
  memories: MemoryRepository;
  facts: FactRepository;
  entities: EntityRepository;
  history: HistoryRepository;
  audit: AuditRepository;
  batches: BatchRepository;
  locks: LockRepository;
  sequences: SequenceRepository;
  /** Reads and writes small settings such as the embedder that produced the stored vectors. */
  settings: {
    get(key: string): Promise<string | null>;
    set(key: string, value: string): Promise<void>;
  };
  /**
   * Runs after every erasure (memory forget, user erasure, agent purge), once the records are
   * deleted: makes the removed bytes unrecoverable from the backend's own files (SQLite: freed
   * pages were zeroed by secure_delete, here the write-ahead log is checkpointed and truncated).
   * The one place for index-specific purges, such as rewriting a full-text index's segments.
   */
  scrubErased(): Promise<void>;
  /**
   * Stores a new write's batch, memories and `created` events: SQLite in one immediate transaction (all or none),
   * MongoDB in that order. When it throws, some of the records may be stored (MongoDB): the caller withdraws them.
   */
  acceptWrites(records: WriteRecords): Promise<void>;
  /**
   * Requests whose writes are acknowledged but not yet in their tables: the embedded runner's inbox rows
   * (workers/embedded/accepted-inbox.ts). MongoDB stores writes before they are acknowledged: always 0.
   */
  acknowledgedNotStored(): Promise<number>;
  /**
   * Runs `work` as one unit of writes where the backend can: SQLite, on a connection a pipeline
   * thread owns, runs it in one immediate transaction (the single write lock is taken once, not
   * once per write), one unit at a time; elsewhere, and on MongoDB, it runs as is. Its writes must
   * be idempotent either way. Other I/O inside `work` holds SQLite's write lock meanwhile.
   */
  writeUnit<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
