import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CACHE_DIR } from '../../support/cache-dir.js';
import { startApiProcess, stopProcess, type OutputProcess } from '../../support/processes.js';
import { ApiClient, type ApiResponse } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

/**
 * The embedded mode (`npm start`: SQLite, pipeline threads) with its DATA_DIR on a real 8 MB tmpfs, filled to the
 * last byte by a file of the test's, then freed. Mounting needs root (or CAP_SYS_ADMIN), as CI and the dev
 * container have: a small filesystem of its own is the only way to meet a real ENOSPC without filling the machine's.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'engram-disk-full-'));
const filler = join(dataDir, 'filler');
let server: { child: OutputProcess; url: string };
let client: ApiClient;

beforeAll(async () => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dataDir], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(`mounting a small tmpfs failed (this test needs root or CAP_SYS_ADMIN): ${(error as any).stderr ?? error}`);
  }
  server = await startApiProcess({
    DATA_DIR: dataDir,
    CACHE_DIR: SHARED_CACHE_DIR,
    PIPELINE_THREADS: '1',
    // With two attempts, a write that counted the full disk as its own failure would end in `error` within a second.
    JOB_ATTEMPTS: '2',
    // The embedded mode: none of the production servers this suite's other files use.
    REDIS_URL: '',
    MONGODB_URL: '',
    ELASTICSEARCH_URL: '',
  });
  // The first start creates a workspace and prints its key once.
  client = new ApiClient(server.url, /\n {2}(eng_\S+)\n/.exec(server.child.output())![1]);
});

afterAll(async () => {
  if (server) await stopProcess(server.child, 'SIGKILL');
  try {
    execFileSync('umount', [dataDir], { stdio: 'pipe' });
  } catch {
    // not mounted
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** Writes to `filler` until the filesystem refuses another byte. */
function fillTheDisk(): void {
  const fd = openSync(filler, 'w');
  try {
    for (const size of [1 << 16, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x55);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

function expectInsufficientStorage(res: ApiResponse) {
  expect(res.status).toBe(507);
  expect(res.body).toEqual({ code: 'insufficient_storage', message: expect.any(String) });
}

const statusOf = async (id: string) => (await client.get(`/v1/memories/${id}`)).body.status;

describe('embedded mode: the disk fills up', () => {
  it('refuses writes with 507, keeps serving reads, loses nothing accepted, resumes when space returns, and leaves a sound database', async () => {
    // Accepted, then the disk fills before its pipeline (still starting) can commit it.
    const accepted = await client.post('/v1/memories', { content: 'I live in Porto.', user_id: 'd' });
    expect(accepted.status).toBe(200);
    fillTheDisk();

    expectInsufficientStorage(await client.post('/v1/memories', { content: 'Refused on a full disk.', user_id: 'd' }));
    expectInsufficientStorage(await client.post('/v1/batch', { memories: [{ content: 'Refused batch item.', user_id: 'd' }] }));
    expectInsufficientStorage(await client.patch(`/v1/memories/${accepted.body.id}`, { content: 'I live in Lisbon.' }));
    const listed = await client.get('/v1/memories?user_id=d');
    expect(listed.status).toBe(200);
    expect(listed.body.memories.map((m: any) => m.content)).toEqual(['I live in Porto.']);
    expect((await client.post('/v1/memories/search', { query: 'Porto', user_id: 'd' })).status).toBe(200);

    // The accepted write waits for space instead of spending its attempts.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(await statusOf(accepted.body.id)).toBe('processing');
    expect(server.child.exitCode).toBeNull();

    rmSync(filler);
    const after = await waitFor(async () => {
      const res = await client.post('/v1/memories', { content: 'I work at Sonae.', user_id: 'd' });
      return res.status === 200 ? res.body : undefined;
    }, 10_000, 100);
    for (const id of [accepted.body.id, after.id]) {
      await waitFor(async () => ((await statusOf(id)) === 'ready' ? true : undefined), 60_000, 100);
    }
    const facts = (await client.get('/v1/facts?user_id=d')).body.facts.map((f: any) => `${f.predicate}:${f.object}`);
    expect(facts.sort()).toEqual(['lives_in:Porto', 'works_at:Sonae']);

    await stopProcess(server.child, 'SIGTERM');
    expect(server.child.exitCode).toBe(0);
    const db = new Database(join(dataDir, 'engram.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const rows = db.prepare('SELECT content, status FROM memories ORDER BY created_at').all();
      expect(rows).toEqual([
        { content: 'I live in Porto.', status: 'ready' },
        { content: 'I work at Sonae.', status: 'ready' },
      ]);
    } finally {
      db.close();
    }
  }, 120_000);
});
