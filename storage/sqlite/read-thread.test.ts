import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReadThread } from './read-thread.js';
import { openDatabase } from './store.js';

/** Keeps this thread busy, as a vector scan would, so that the read thread takes the read. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

const SLOW = 'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS n FROM n';

describe('ReadThread', () => {
  let dir: string;
  let db: Database.Database;
  let reader: ReadThread;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'engram-read-thread-'));
    db = openDatabase(dir);
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)');
    db.prepare('INSERT INTO t (name) VALUES (?), (?)').run('ada', 'bob');
    reader = ReadThread.start(db);
  });

  afterAll(async () => {
    await reader.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers what the caller connection answers, including its latest commit', async () => {
    const read = async (sql: string, params: unknown[]) => {
      const rows = reader.all(sql, params);
      busy(100);
      return rows;
    };
    expect(await read('SELECT name FROM t WHERE id > ? ORDER BY id', [0])).toEqual([{ name: 'ada' }, { name: 'bob' }]);
    db.prepare('INSERT INTO t (name) VALUES (?)').run('cy');
    expect(await read('SELECT count(*) AS n FROM t', [])).toEqual([{ n: 3 }]);
    await expect(read('SELECT nope FROM t', [])).rejects.toThrow(/no such column/);
  });

  it('runs a read here when the thread is still busy with an earlier one', async () => {
    const order: string[] = [];
    const slow = reader.all(SLOW, []).then(() => order.push('slow'));
    // This thread stays busy long enough for the other one to start the slow read...
    busy(200);
    // ...and is free when the quick one comes: that one does not wait behind the slow one.
    const quick = reader.all('SELECT count(*) AS n FROM t', []).then(() => order.push('quick'));
    await Promise.all([slow, quick]);
    expect(order).toEqual(['quick', 'slow']);
  });

  it('answers on the caller connection once closed', async () => {
    const other = ReadThread.start(db);
    await other.close();
    expect(other.running).toBe(false);
    expect(await other.all('SELECT count(*) AS n FROM t', [])).toEqual([{ n: 3 }]);
  });
});
