import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-write-unit-'));
const owned = SqliteStore.open(dir, { unitsInTransactions: true });
const shared = SqliteStore.open(dir);
afterAll(async () => {
  await owned.close();
  await shared.close();
  rmSync(dir, { recursive: true, force: true });
});

const value = async (store: SqliteStore, key: string) => store.settings.get(key);

describe('write units on SQLite', () => {
  it('on a connection a pipeline thread owns: all of a unit or none of it, invisible to others until it ends', async () => {
    await owned.writeUnit(async () => {
      await owned.settings.set('a', '1');
      expect(await value(shared, 'a')).toBeNull();
      await owned.settings.set('b', '1');
    });
    expect([await value(shared, 'a'), await value(shared, 'b')]).toEqual(['1', '1']);

    await expect(
      owned.writeUnit(async () => {
        await owned.settings.set('c', '1');
        throw new Error('stage failed');
      }),
    ).rejects.toThrow('stage failed');
    expect(await value(shared, 'c')).toBeNull();
    expect(owned.db.inTransaction).toBe(false);
  });

  it('runs the units of one connection one after another, even when they overlap in time', async () => {
    const order: string[] = [];
    const unit = (name: string) =>
      owned.writeUnit(async () => {
        order.push(`${name} begins`);
        await new Promise((r) => setTimeout(r, 20));
        await owned.settings.set(name, 'x');
        order.push(`${name} ends`);
      });
    await Promise.all([unit('u1'), unit('u2')]);
    expect(order).toEqual(['u1 begins', 'u1 ends', 'u2 begins', 'u2 ends']);
  });

  it('waits for a write lock another connection holds without blocking the thread, then runs', async () => {
    shared.db.prepare('BEGIN IMMEDIATE').run();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 5);
    const unit = owned.writeUnit(async () => owned.settings.set('e', '1'));
    await new Promise((r) => setTimeout(r, 100));
    shared.db.prepare('COMMIT').run();
    await unit;
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(5);
    expect(await value(shared, 'e')).toBe('1');
  });

  it('on a shared connection, runs the work as is (each write commits on its own)', async () => {
    await expect(
      shared.writeUnit(async () => {
        await shared.settings.set('d', '1');
        throw new Error('stage failed');
      }),
    ).rejects.toThrow();
    expect(await value(owned, 'd')).toBe('1');
  });
});
