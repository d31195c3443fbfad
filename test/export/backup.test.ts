import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_CACHE_DIR, startTestServer } from '../support/server.js';
import { admin, adminAsync } from '../support/transfer.js';

/**
 * `admin backup` copies the embedded database while the service takes writes; `admin restore` brings the copy
 * back into a data folder, refusing bad, truncated or foreign files, a folder in use and (without --replace) one
 * with data, changing nothing when it refuses.
 */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-backup-'));
  dirs.push(d);
  return d;
};
const env = (dataDir: string) => ({ DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR });
const digest = (dir: string) =>
  Object.fromEntries(readdirSync(dir).sort().map((f) => [f, createHash('sha256').update(readFileSync(join(dir, f))).digest('hex')]));

afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('admin backup and restore (embedded database)', () => {
  it('takes a consistent online copy while writes run, and restores it', async () => {
    const server = await startTestServer({}, { mode: 'embedded' });
    const backups = tempDir();
    const file = join(backups, 'engram-backup.db');
    try {
      const api = server.api();
      // a few hundred rows first, so the copy has something to do
      const batch = await api.post('/v1/batch', { memories: Array.from({ length: 300 }, (_, i) => ({ content: `Seed note ${i} about tea.`, user_id: 'seed' })) });
      expect(batch.status).toBe(202);
      await server.settle();

      // one writer, each write acknowledged before the next: any consistent snapshot holds writes 0..k-1 exactly
      let acknowledged = 0;
      let stop = false;
      const writer = (async () => {
        while (!stop) {
          const r = await api.post('/v1/memories', { content: `Write number ${acknowledged}.`, user_id: 'writer' });
          expect(r.status).toBe(200);
          acknowledged++;
        }
      })();
      while (acknowledged < 5) await new Promise((r) => setTimeout(r, 10));
      const before = acknowledged;
      const backup = await adminAsync(env(server.dataDir), 'backup', '--to', file);
      const after = acknowledged;
      stop = true;
      await writer;
      expect(backup.status, backup.stderr).toBe(0);
      expect(backup.result).toMatchObject({ file, schema_version: expect.any(Number) });
      expect(after).toBeGreaterThan(before); // writes went on while the copy was taken

      const copy = new Database(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const numbers = (copy.prepare(`SELECT content FROM memories WHERE user_id = 'writer'`).all() as { content: string }[])
          .map((r) => Number(/Write number (\d+)\./.exec(r.content)![1]))
          .sort((a, b) => a - b);
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i)); // a prefix, no gaps
        expect(numbers.length).toBeGreaterThanOrEqual(before);
        expect(numbers.length).toBeLessThanOrEqual(after + 1);
        expect((copy.prepare(`SELECT COUNT(*) AS n FROM memories WHERE user_id = 'seed'`).get() as { n: number }).n).toBe(300);
      } finally {
        copy.close();
      }

      // restore into an empty folder; the service starts on it and serves the copied writes
      const restoredDir = tempDir();
      const restored = admin(env(restoredDir), 'restore', '--from', file);
      expect(restored.status, restored.stderr).toBe(0);
      const again = await startTestServer({}, { mode: 'embedded', dataDir: restoredDir });
      try {
        const listed = await again.api().get('/v1/memories?user_id=seed&limit=1');
        expect(listed.body.total).toBe(300);
      } finally {
        await again.close();
      }

      // a folder in use (the running server's) is refused and left as it is
      const inUse = admin(env(server.dataDir), 'restore', '--from', file, '--replace');
      expect(inUse.status).toBe(2);
      expect(inUse.stderr).toContain('in use');
    } finally {
      await server.close();
    }

    // a stopped folder with data: refused without --replace, replaced (old copy kept aside) with it
    const target = tempDir();
    expect(admin(env(target), 'restore', '--from', file).status).toBe(0);
    const unchanged = digest(target);
    const refused = admin(env(target), 'restore', '--from', file);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--replace');
    expect(digest(target)).toEqual(unchanged);
    const replaced = admin(env(target), 'restore', '--from', file, '--replace');
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(existsSync(replaced.result.replaced)).toBe(true);
  }, 180_000);

  it('refuses bad, truncated and foreign files and changes nothing', () => {
    const source = tempDir();
    const good = join(tempDir(), 'good.db');
    expect(admin(env(source), 'keys', 'create', '--workspace', 'acme', '--plan', 'team').status).toBe(0);
    expect(admin(env(source), 'backup', '--to', good).status).toBe(0);
    const bytes = readFileSync(good);
    const files = tempDir();
    const foreignDb = join(files, 'foreign.db');
    const other = new Database(foreignDb);
    other.exec('CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES (1)');
    other.close();
    const corrupt = Buffer.from(bytes);
    for (let page = 1; page * 4096 < corrupt.length; page++) corrupt.fill(0x5a, page * 4096, page * 4096 + 12); // every b-tree page header but the first
    const cases: [string, Buffer | string | null, string][] = [
      ['truncated.db', bytes.subarray(0, Math.floor(bytes.length / 2)), 'damaged'],
      ['text.db', 'hello, I am not a database\n'.repeat(10), 'not a SQLite database'],
      ['export.jsonl', '{"format":"engram-export","version":1}\n', 'workspace restore'],
      ['corrupt.db', corrupt, 'damaged'],
      ['foreign.db', null, "not Engram's"],
      ['missing.db', null, 'does not exist'],
    ];
    const target = tempDir();
    expect(admin(env(target), 'restore', '--from', good).status).toBe(0);
    const unchanged = digest(target);
    for (const [name, content, message] of cases) {
      const path = join(files, name);
      if (content !== null) writeFileSync(path, content);
      const result = admin(env(target), 'restore', '--from', path, '--replace');
      expect(result.status, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr, name).toContain(message);
      expect(result.stderr, name).not.toMatch(/\n\s+at /);
      expect(digest(target), name).toEqual(unchanged);
    }
  });
});
