/**
 * Whole-database backup and restore of the embedded store (`admin backup` / `admin restore`).
 * See docs/backup-and-migration.md.
 */
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SCHEMA_VERSION } from './schema.js';

export const DATABASE_FILE = 'engram.db';
/** Tables every Engram database has had since its first migration. */
const ENGRAM_TABLES = ['workspaces', 'api_keys', 'agents', 'memories', 'facts', 'entities', 'history', 'audit', 'settings', 'vectors'];
const SQLITE_MAGIC = 'SQLite format 3\0';

export class BackupError extends Error {}

/**
 * Copies the live database at `<dataDir>/engram.db` to `file` with SQLite's online backup API while the
 * service keeps running. The copy is taken in one step, i.e. in one read transaction: it is the database as
 * of one commit (a consistent prefix of the writes), and writers are never blocked (WAL). It is written under
 * a temporary name, checked (`integrity_check`), and renamed into place.
 */
export async function backupDatabase(dataDir: string, file: string): Promise<{ file: string; bytes: number; schema_version: number; ms: number }> {
  const source = join(dataDir, DATABASE_FILE);
  if (!existsSync(source)) throw new BackupError(`No embedded database at ${source} (DATA_DIR)`);
  if (!existsSync(dirname(file))) throw new BackupError(`The folder of ${file} does not exist`);
  const started = Date.now();
  const partial = `${file}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  const db = new Database(source, { fileMustExist: true, timeout: 10_000 });
  try {
    // Copy everything in the step after the first: a multi-step copy restarts whenever another connection writes.
    await db.backup(partial, { progress: () => 0x7fffffff });
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  try {
    const { schemaVersion } = inspectDatabase(partial);
    renameSync(partial, file);
    return { file, bytes: statSync(file).size, schema_version: schemaVersion, ms: Date.now() - started };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Checks that `file` is an intact Engram database this version can open: SQLite header, `integrity_check`,
 * Engram's tables, a schema version no newer than this code's. Opens it read-only: changes nothing.
 */
export function inspectDatabase(file: string): { schemaVersion: number; workspaces: number } {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  if (head.toString('latin1') !== SQLITE_MAGIC) throw new BackupError(`${file} is not a SQLite database (an Engram backup is one; a workspace export restores with \`admin workspace restore\`)`);
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(`${file} cannot be opened as a SQLite database: ${(error as Error).message}`);
  }
  try {
    let check: string[];
    try {
      check = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    } catch (error) {
      throw new BackupError(`${file} is damaged or truncated: ${(error as Error).message}`);
    }
    if (check.length !== 1 || check[0] !== 'ok') throw new BackupError(`${file} is damaged: integrity_check reports ${check.slice(0, 3).join('; ')}`);
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    const missing = ENGRAM_TABLES.filter((t) => !tables.has(t));
    if (missing.length) throw new BackupError(`${file} is a SQLite database but not Engram's (no ${missing.join(', ')} table)`);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    if (schemaVersion > SCHEMA_VERSION) {
      throw new BackupError(`${file} has schema version ${schemaVersion}, newer than this Engram's ${SCHEMA_VERSION}: restore it with the Engram that made it (or a newer one)`);
    }
    const workspaces = (db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n;
    return { schemaVersion, workspaces };
  } finally {
    db.close();
  }
}

/** Whether another connection (a running service, worker or CLI) has the database open: its write-ahead log outlives our own open and close. */
function inUse(path: string): boolean {
  const db = new Database(path, { fileMustExist: true, timeout: 2_000 });
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return existsSync(`${path}-wal`);
}

/**
 * Restores a backup into `<dataDir>/engram.db`. The file is checked first (inspectDatabase); the data folder
 * must not be in use. An existing database with workspaces is only replaced with `replace`, and is then kept
 * beside it as `engram.db.replaced-<time>` (with its -wal/-shm), never deleted. Nothing changes on any refusal.
 */
export function restoreDatabase(file: string, dataDir: string, options: { replace?: boolean } = {}): { restored: string; schema_version: number; workspaces: number; replaced: string | null } {
  const { schemaVersion, workspaces } = inspectDatabase(file);
  const target = join(dataDir, DATABASE_FILE);
  let replaced: string | null = null;
  if (existsSync(target)) {
    if (inUse(target)) throw new BackupError(`${target} is in use (a service, worker or admin command has it open): stop them and run restore again`);
    const existing = inspectDatabaseQuietly(target);
    if (existing !== 0 && !options.replace) {
      throw new BackupError(`${target} already holds ${existing ?? 'unreadable'} workspace(s); pass --replace to keep it aside as ${DATABASE_FILE}.replaced-<time> and restore over it`);
    }
    replaced = `${target}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${target}${suffix}`)) renameSync(`${target}${suffix}`, `${replaced}${suffix}`);
  }
  mkdirSync(dataDir, { recursive: true });
  const partial = `${target}.restoring-${process.pid}`;
  try {
    // Copied through SQLite (not as bytes) into a file of its own, then renamed into place.
    const source = new Database(file, { readonly: true, fileMustExist: true });
    try {
      source.exec(`VACUUM INTO '${partial.replace(/'/g, "''")}'`);
    } finally {
      source.close();
    }
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    if (replaced) for (const suffix of ['', '-wal', '-shm']) if (existsSync(`${replaced}${suffix}`)) renameSync(`${replaced}${suffix}`, `${target}${suffix}`);
    throw error;
  }
  return { restored: target, schema_version: schemaVersion, workspaces, replaced };
}

/** Workspaces in an existing database; null when it cannot be read. */
function inspectDatabaseQuietly(path: string): number | null {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}
