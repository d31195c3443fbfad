import type Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WriterPriority } from './writer-priority.js';

const isBusy = (error: unknown) => (error as { code?: string } | null)?.code === 'SQLITE_BUSY';

/** Connections whose writes go first (`urgent`) or give way to those under a shared `WriterPriority`. */
const roles = new WeakMap<Database.Database, { priority: WriterPriority; urgent: boolean }>();

/** This connection's writes go first: it raises `priority` while it waits for and holds the write lock. */
export function writeUrgently(db: Database.Database, priority: WriterPriority): void {
  roles.set(db, { priority, urgent: true });
}

/** This connection's writes give way to urgent ones: before each attempt it stands back while `priority` is raised. */
export function yieldToUrgentWrites(db: Database.Database, priority: WriterPriority): void {
  roles.set(db, { priority, urgent: false });
}

/**
 * Runs a write that may wait inside SQLite (a library's statement, with the busy timeout) as
 * urgent when the connection's writes are: the flag is raised before it starts waiting.
 */
export function asUrgentWrite<T>(db: Database.Database, work: () => Promise<T>): Promise<T> {
  const role = roles.get(db);
  return role?.urgent ? role.priority.whileUrgent(work) : work();
}

/** Before a write of a connection that yields (never inside its own transaction: it holds the lock then). */
async function standBackForUrgentWrites(db: Database.Database): Promise<void> {
  const role = roles.get(db);
  if (role && !role.urgent && role.priority.raised && !db.inTransaction) await role.priority.standBack();
}

/**
 * Makes attempts to take SQLite's single write lock, each failing at once while another
 * connection holds it, one a millisecond, without blocking the event loop in between. The
 * connection's busy timeout would wait inside SQLite, stalling everything else on this thread
 * (requests on the API thread, other writes' stages on a pipeline thread), and it backs off
 * (1, 2, 5, 10 … ms) while other connections keep taking the lock. After `patienceMs` the last
 * attempt waits with the busy timeout, so the wait stays bounded as before.
 */
async function whenWriteLockFree<T>(db: Database.Database, attempt: () => T, patienceMs: number): Promise<T> {
  const deadline = Date.now() + patienceMs;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  while (Date.now() < deadline) {
    await standBackForUrgentWrites(db);
    db.pragma('busy_timeout = 0');
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || db.inTransaction) throw error;
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
    await sleep(1);
  }
  return attempt();
}

/** Runs `work` in an immediate transaction once the write lock is free (see `whenWriteLockFree`). */
export function inWriteTransaction<T>(db: Database.Database, work: () => T, patienceMs = 2_000): Promise<T> {
  return asUrgentWrite(db, () => whenWriteLockFree(db, db.transaction(work).immediate, patienceMs));
}

/** `BEGIN IMMEDIATE` once the write lock is free (see `whenWriteLockFree`); the caller commits or rolls back. */
export function beginImmediate(db: Database.Database, patienceMs = 2_000): Promise<void> {
  return whenWriteLockFree(db, () => void db.prepare('BEGIN IMMEDIATE').run(), patienceMs);
}
