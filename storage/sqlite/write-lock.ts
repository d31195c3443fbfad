import type Database from 'better-sqlite3';
import { setTimeout as sleep } from 'node:timers/promises';

const isBusy = (error: unknown) => (error as { code?: string } | null)?.code === 'SQLITE_BUSY';

/**
 * Runs `work` in an immediate transaction once SQLite's single write lock is free, waiting for
 * it without blocking the event loop. The connection's busy timeout would wait inside SQLite,
 * which on the API thread stalls every request meanwhile, and backs off (1, 2, 5, 10 … ms)
 * while other connections keep taking the lock. Here each attempt fails at once when the lock
 * is held, and the next one comes a millisecond later. After `patienceMs` it falls back to
 * the busy timeout, so the wait stays bounded as before.
 */
export async function inWriteTransaction<T>(db: Database.Database, work: () => T, patienceMs = 2_000): Promise<T> {
  const transaction = db.transaction(work).immediate;
  const deadline = Date.now() + patienceMs;
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  while (Date.now() < deadline) {
    db.pragma('busy_timeout = 0');
    try {
      return transaction();
    } catch (error) {
      if (!isBusy(error) || db.inTransaction) throw error;
    } finally {
      db.pragma(`busy_timeout = ${timeout}`);
    }
    await sleep(1);
  }
  return transaction();
}
