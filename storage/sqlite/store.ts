import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Store, WriteRecords } from '../types.js';
import { SqliteEntityRepository } from './entities.js';
import { SqliteFactRepository } from './facts.js';
import { SqliteMemoryRepository } from './memories.js';
import {
  SqliteAgentRepository,
  SqliteApiKeyRepository,
  SqliteAuditRepository,
  SqliteBatchRepository,
  SqliteHistoryRepository,
  SqliteLockRepository,
  SqliteSequenceRepository,
  SqliteWorkspaceRepository,
} from './records.js';
import { migrate } from './schema.js';
import { SqliteWorkspaceTransfer } from './transfer.js';
import { cachePreparedStatements } from './statement-cache.js';
import { beginImmediate, inWriteTransaction } from './write-lock.js';
import { SqliteJobs } from './jobs.js';
import { SqliteInbox } from './inbox.js';

/** Opens (creating if needed) the embedded database in `dataDir`. Safe to open from several processes. */
export function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'engram.db'), { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Deleted rows and overwritten values are zeroed in the file, not left in free space (erasure).
  db.pragma('secure_delete = ON');
  migrate(db);
  // Lets the query planner gather the statistics it needs (cheap; SQLite's recommendation at open).
  db.pragma('optimize = 0x10002');
  return cachePreparedStatements(db);
}

/**
 * Copies the write-ahead log into the database and truncates it to zero bytes, so page
 * images written before an erasure do not survive in `engram.db-wal`. A reader in another
 * process (a separate worker, the admin CLI) can hold it back: each attempt already waits
 * up to the connection's busy timeout, so a few attempts suffice before reporting.
 */
export async function checkpointAndTruncateWal(db: Database.Database, attempts = 3): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    if (result.busy === 0) return;
    if (attempt >= attempts) throw new Error('the write-ahead log stayed in use; it will be truncated by a later checkpoint');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  readonly workspaces;
  readonly keys;
  readonly agents;
  readonly memories;
  readonly facts;
  readonly entities;
  readonly history;
  readonly audit;
  readonly batches;
  readonly locks;
  readonly sequences;
  readonly settings;
  readonly transfer;
  /** The embedded runner's queue and the acknowledged writes waiting for it (not part of `Store`). */
  readonly jobs;
  readonly inbox;
  /** The write unit this connection is running; the next one waits for it. */
  private unitInProgress: Promise<void> = Promise.resolve();

  constructor(
    readonly db: Database.Database,
    private readonly unitsInTransactions = false,
  ) {
    this.workspaces = new SqliteWorkspaceRepository(db);
    this.keys = new SqliteApiKeyRepository(db);
    this.agents = new SqliteAgentRepository(db);
    this.memories = new SqliteMemoryRepository(db);
    this.facts = new SqliteFactRepository(db);
    this.entities = new SqliteEntityRepository(db);
    this.history = new SqliteHistoryRepository(db);
    this.audit = new SqliteAuditRepository(db);
    this.batches = new SqliteBatchRepository(db);
    this.locks = new SqliteLockRepository(db);
    this.sequences = new SqliteSequenceRepository(db);
    this.transfer = new SqliteWorkspaceTransfer(db);
    this.jobs = new SqliteJobs(db);
    this.inbox = new SqliteInbox(db);
    this.settings = {
      get: async (key: string) => (db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value ?? null,
      set: async (key: string, value: string) => {
        db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
      },
    };
  }

  static open(dataDir: string, options: { unitsInTransactions?: boolean } = {}): SqliteStore {
    return new SqliteStore(openDatabase(dataDir), options.unitsInTransactions);
  }

  /**
   * One immediate transaction: the caller takes SQLite's write lock once instead of once per table.
   * `alsoInTransaction` joins it, so a crash leaves all of it or none. (The embedded runner stores a request's
   * writes with `insertWrites` in transactions of its own, with their job rows: workers/embedded/accepted-inbox.ts.)
   */
  async acceptWrites(records: WriteRecords, alsoInTransaction?: () => void): Promise<void> {
    await inWriteTransaction(this.db, () => {
      this.insertWrites(records);
      alsoInTransaction?.();
    });
  }

  /** acceptWrites' rows, in the caller's transaction. */
  insertWrites({ batch, memories, events }: WriteRecords): void {
    if (batch) this.batches.insertRow(batch);
    for (const memory of memories) this.memories.insertRow(memory);
    this.history.appendRows(events);
  }

  async acknowledgedNotStored(): Promise<number> {
    return this.inbox.count();
  }

  async scrubErased(): Promise<void> {
    // Full-text index segments keep a deleted row's terms until they are merged: merge them, before the checkpoint.
    this.db.prepare(`INSERT INTO text_index (text_index) VALUES ('optimize')`).run();
    // ANALYZE (run by `PRAGMA optimize` at open) samples index keys, content included, into sqlite_stat4.
    // The planner keeps sqlite_stat1's counts, which hold no content.
    if (this.db.prepare(`SELECT 1 FROM sqlite_schema WHERE name = 'sqlite_stat4'`).get()) this.db.prepare('DELETE FROM sqlite_stat4').run();
    await checkpointAndTruncateWal(this.db);
  }

  /**
   * In one transaction only on a connection that serves a pipeline thread alone (`unitsInTransactions`):
   * on a shared one, a unit whose work awaited other I/O (an LLM judge) would let a request's write
   * join it, and a rollback would take that write with it.
   */
  async writeUnit<T>(work: () => Promise<T>): Promise<T> {
    if (!this.unitsInTransactions) return work();
    const previous = this.unitInProgress;
    let finished!: () => void;
    this.unitInProgress = new Promise((resolve) => (finished = resolve));
    await previous;
    try {
      await beginImmediate(this.db);
      try {
        const result = await work();
        this.db.prepare('COMMIT').run();
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
        throw error;
      }
    } finally {
      finished();
    }
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
