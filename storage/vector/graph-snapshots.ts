import type Database from 'better-sqlite3';
import { randomInt } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { GraphPartition, type FloatRows, type GraphFiles } from './graph-partition.js';

const ZEROS = Buffer.alloc(1 << 20);
const SAFE_NAME = /^[A-Za-z0-9_-]+$/;

/**
 * Saved graphs, so that a restart loads a large workspace's graph instead of building it again
 * (minutes at a million rows). A snapshot is three files named by a random token; the database
 * records the token and the vector revision the files hold, in the same place as the vectors, so
 * that files from another time (a crash while saving, a restored backup) are never read: only
 * the token the database names counts, and the rows written after its revision are read on top.
 *
 * Any removal from a saved workspace first drops its token and overwrites its files with zeros
 * before unlinking them: an erased row's codes do not stay on disk.
 */
export class GraphSnapshots {
  constructor(
    private readonly db: Database.Database,
    private readonly dir: string,
  ) {}

  private folder(workspaceId: string): string | null {
    return SAFE_NAME.test(workspaceId) ? join(this.dir, workspaceId) : null;
  }

  private files(folder: string, token: number): GraphFiles {
    return { graph: join(folder, `${token}.graph`), codes: join(folder, `${token}.codes`), rows: join(folder, `${token}.rows`) };
  }

  private recorded(workspaceId: string): { token: number; rev: number } | null {
    const row = this.db.prepare('SELECT value FROM sequences WHERE name = ?').get(`graph_snapshot:${workspaceId}`) as { value: number } | undefined;
    const rev = this.db.prepare('SELECT value FROM sequences WHERE name = ?').get(`graph_snapshot_rev:${workspaceId}`) as { value: number } | undefined;
    return row && rev ? { token: row.value, rev: rev.value } : null;
  }

  /**
   * Saves a clean graph that holds every row of the workspace up to `rev`, then erases any older
   * snapshot. Returns false, erasing what it wrote, when a row the graph holds was removed after
   * `rev` meanwhile (by a pipeline thread, whose removal erased the snapshot the graph replaces).
   */
  save(workspaceId: string, partition: GraphPartition, rev: number): boolean {
    const folder = this.folder(workspaceId);
    if (!folder || !partition.clean) return false;
    mkdirSync(folder, { recursive: true });
    const token = randomInt(1, 2 ** 47);
    const files = this.files(folder, token);
    partition.save(files, writeDurably);
    fsyncFile(files.graph);
    const recorded = this.db.transaction(() => {
      const removed = this.db.prepare('SELECT id FROM vector_tombstones WHERE rev > ?').all(rev) as { id: string }[];
      if (removed.some((r) => partition.has(r.id))) return false;
      const set = this.db.prepare('INSERT INTO sequences (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
      set.run(`graph_snapshot:${workspaceId}`, token);
      set.run(`graph_snapshot_rev:${workspaceId}`, rev);
      return true;
    }).immediate();
    if (recorded) this.eraseFiles(folder, token);
    else for (const path of Object.values(files)) erase(path);
    return recorded;
  }

  /** The workspace's saved graph and the revision it holds, or null (none, or files the database does not name). */
  load(workspaceId: string, floatsOf: FloatRows): { partition: GraphPartition; rev: number } | null {
    const folder = this.folder(workspaceId);
    if (!folder || !existsSync(folder)) return null;
    const recorded = this.recorded(workspaceId);
    this.eraseFiles(folder, recorded?.token);
    if (!recorded) return null;
    const files = this.files(folder, recorded.token);
    if (!Object.values(files).every((path) => existsSync(path))) return null;
    try {
      return { partition: GraphPartition.restore(files, (path) => readFileSync(path), floatsOf), rev: recorded.rev };
    } catch {
      this.drop(workspaceId);
      return null;
    }
  }

  /** Forgets the workspace's snapshot and erases its files (before a row is removed from it). */
  drop(workspaceId: string): void {
    const folder = this.folder(workspaceId);
    if (!folder || !existsSync(folder)) return;
    this.db.prepare('DELETE FROM sequences WHERE name IN (?, ?)').run(`graph_snapshot:${workspaceId}`, `graph_snapshot_rev:${workspaceId}`);
    this.eraseFiles(folder);
  }

  /** Overwrites with zeros and unlinks every file of the folder but those of `keep`. */
  private eraseFiles(folder: string, keep?: number): void {
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) {
      if (keep !== undefined && name.startsWith(`${keep}.`)) continue;
      erase(join(folder, name));
    }
    if (keep === undefined) rmdirSync(folder);
  }
}

function writeDurably(path: string, parts: Uint8Array[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const part of parts) for (let at = 0; at < part.length; ) at += writeSync(fd, part, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Overwrites the file with zeros, then unlinks it. */
function erase(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    const size = statSync(path).size;
    for (let at = 0; at < size; ) at += writeSync(fd, ZEROS, 0, Math.min(ZEROS.length, size - at), at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  unlinkSync(path);
}
