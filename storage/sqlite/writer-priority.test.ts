import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './store.js';
import { inWriteTransaction, writeUrgently, yieldToUrgentWrites } from './write-lock.js';
import { WriterPriority } from './writer-priority.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-writer-priority-'));
const api = openDatabase(dir);
const pipeline = openDatabase(dir);
const holder = openDatabase(dir);
const priority = new WriterPriority();
writeUrgently(api, priority);
yieldToUrgentWrites(pipeline, priority);
afterAll(() => {
  for (const db of [api, pipeline, holder]) db.close();
  rmSync(dir, { recursive: true, force: true });
});

const append = (db: typeof api, who: string) => () => db.prepare(`INSERT INTO settings (key, value) VALUES (?, ?)`).run(`${who}-${Math.random()}`, who);
const order = () => (holder.prepare(`SELECT value FROM settings ORDER BY rowid`).all() as { value: string }[]).map((r) => r.value);

describe('urgent writes go first at the write lock', () => {
  it('a yielding write that tries the moment the lock frees lets a waiting urgent write go first', async () => {
    holder.prepare('DELETE FROM settings').run();
    holder.prepare('BEGIN IMMEDIATE').run();
    const apiWrite = inWriteTransaction(api, append(api, 'api'));
    await sleep(20);
    expect(priority.raised).toBe(true);
    holder.prepare('COMMIT').run();
    // Its first attempt comes before the API's next retry: without priority it would take the lock.
    const pipelineWrite = inWriteTransaction(pipeline, append(pipeline, 'pipeline'));
    await Promise.all([apiWrite, pipelineWrite]);
    expect(order()).toEqual(['api', 'pipeline']);
    expect(priority.raised).toBe(false);
  });

  it('a yielding write stands back for a bounded time only, so it never starves', async () => {
    holder.prepare('DELETE FROM settings').run();
    const started = Date.now();
    const longUrgent = priority.whileUrgent(() => sleep(400));
    await inWriteTransaction(pipeline, append(pipeline, 'pipeline'));
    expect(Date.now() - started).toBeLessThan(300);
    expect(priority.raised).toBe(true);
    await longUrgent;
    expect(order()).toEqual(['pipeline']);
  });
});
