import type Database from 'better-sqlite3';

/** An inbox row: its place, and how many of its memories are expanded. */
export interface InboxRow {
  seq: number;
  expanded: number;
}

/**
 * The inbox table: each request's acknowledged writes as one row, so that accepting a 500-item batch is one insert.
 * The embedded runner expands rows into the memories, history, batches and jobs tables in arrival order
 * (workers/embedded/accepted-inbox.ts) and deletes them; secure_delete zeroes what they held.
 * Methods run in the caller's transaction.
 */
export class SqliteInbox {
  constructor(private readonly db: Database.Database) {}

  /** Returns the row's place: places only grow, also across deleted rows. */
  add(writes: string): number {
    return Number(this.db.prepare('INSERT INTO inbox (writes) VALUES (?)').run(writes).lastInsertRowid);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM inbox').get() as { n: number }).n;
  }

  /** The place of the newest row, 0 when there is none. */
  newest(): number {
    return (this.db.prepare('SELECT max(seq) AS seq FROM inbox').get() as { seq: number | null }).seq ?? 0;
  }

  oldest(): InboxRow | undefined {
    return this.db.prepare('SELECT seq, expanded FROM inbox ORDER BY seq LIMIT 1').get() as InboxRow | undefined;
  }

  /** What the row's request acknowledged (opaque JSON to storage). */
  writes(seq: number): string {
    return (this.db.prepare('SELECT writes FROM inbox WHERE seq = ?').get(seq) as { writes: string }).writes;
  }

  /** The row's first `expanded` memories are in their tables now. */
  advance(seq: number, expanded: number): void {
    this.db.prepare('UPDATE inbox SET expanded = ? WHERE seq = ?').run(expanded, seq);
  }

  remove(seq: number): void {
    this.db.prepare('DELETE FROM inbox WHERE seq = ?').run(seq);
  }
}
