import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './store.js';
import { inWriteTransaction } from './write-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-write-lock-'));
const mine = openDatabase(dir);
const other = openDatabase(dir);
afterAll(() => {
  mine.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

const setting = (value: string) => () => mine.prepare(`INSERT OR REPLACE INTO settings (key, value) VALUES ('k', ?)`).run(value);

describe('waiting for the write lock without blocking the event loop', () => {
  it('lets timers run while another connection holds the lock, then writes', async () => {
    other.prepare('BEGIN IMMEDIATE').run();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const write = inWriteTransaction(mine, setting('after'));
    await new Promise((r) => setTimeout(r, 100));
    const ticksWhileHeld = ticks;
    other.prepare('COMMIT').run();
    await write;
    clearInterval(ticker);
    expect(ticksWhileHeld).toBeGreaterThan(5);
    expect(other.prepare(`SELECT value FROM settings WHERE key = 'k'`).get()).toEqual({ value: 'after' });
    expect(mine.pragma('busy_timeout', { simple: true })).toBe(10_000);
  });

  it('after its patience, waits inside SQLite as before and reports a lock that stays held', async () => {
    other.prepare('BEGIN IMMEDIATE').run();
    mine.pragma('busy_timeout = 50');
    try {
      await expect(inWriteTransaction(mine, setting('never'), 30)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    } finally {
      other.prepare('ROLLBACK').run();
      mine.pragma('busy_timeout = 10000');
    }
    expect(mine.inTransaction).toBe(false);
  });
});
