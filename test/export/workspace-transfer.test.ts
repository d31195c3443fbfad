import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_CACHE_DIR, startTestServer, type TestServer } from '../support/server.js';
import { startOpenAIStub } from '../support/openai-stub.js';
import { admin, adminAsync, expectSameExport, exportLines, seedWorkspace, workspaceView } from '../support/transfer.js';
import { createKey } from '../../core/commands/keys.js';
import { SqliteStore } from '../../storage/sqlite/store.js';

/**
 * `admin workspace export` / `workspace restore` between two embedded data folders, over the real CLI and HTTP:
 * the restored workspace answers every read exactly as the original did, exports to the same records and
 * vectors, and bad, truncated or foreign files are refused before anything is written.
 */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-transfer-'));
  dirs.push(d);
  return d;
};
const embeddedEnv = (dataDir: string) => ({ DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR });

let source: TestServer;
let ids: { updated: string; forgotten: string };
let view: Awaited<ReturnType<typeof workspaceView>>;
let file: string;

beforeAll(async () => {
  source = await startTestServer({}, { mode: 'embedded' });
  ids = await seedWorkspace(source.api(), () => source.settle());
  view = await workspaceView(source.api(), ids);
  file = join(tempDir(), 'test.engram.jsonl.gz');
  const exported = admin(source.env, 'workspace', 'export', '--workspace', 'test', '--to', file);
  expect(exported.status, exported.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await source?.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('workspace export and restore (embedded → embedded)', () => {
  it('writes a versioned, checksummed JSON Lines file without secrets', () => {
    const lines = exportLines(file);
    expect(lines[0]).toMatchObject({ format: 'engram-export', version: 1, workspace: { slug: 'test' }, embedder: expect.any(String) });
    expect(lines[0].counts).toMatchObject({ memory: 5, key: 1, vector: 4 });
    expect(lines[0].counts.fact).toBeGreaterThanOrEqual(4);
    expect(lines[0].counts.history).toBeGreaterThanOrEqual(8);
    expect(lines[lines.length - 1]).toMatchObject({ end: 'engram-export', lines: lines.length - 1, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const text = gunzipSync(readFileSync(file)).toString('utf8');
    expect(text).not.toContain(source.key);
    expect(lines.filter((l) => l.kind === 'key').every((l) => !('hash' in l.record))).toBe(true);
    // the forgotten memory is a stub: no content, no vector
    const stub = lines.find((l) => l.kind === 'memory' && l.record.id === ids.forgotten);
    expect(stub.record).toMatchObject({ content: '', deletedAt: expect.any(String) });
    expect(text).not.toContain('4711');
  });

  it('restores into an empty data folder with the same ids, timestamps, timelines and vectors', async () => {
    const dataDir = tempDir();
    const restored = admin(embeddedEnv(dataDir), 'workspace', 'restore', '--from', file);
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.result).toMatchObject({ workspace: 'test', vectors: 'carried', keys_revoked: 1 });

    const target = await startTestServer({}, { mode: 'embedded', dataDir }); // makes a new key for "test", as `admin keys create` does
    try {
      expect((await target.api(source.key).get('/v1/ping')).status).toBe(401); // keys come back revoked
      expect(await workspaceView(target.api(), ids)).toEqual(view);
      // new writes sort after the restored ones
      const added = await target.api().post('/v1/memories', { content: 'I live in Trondheim now.', user_id: 'maya' });
      await target.settle();
      const live = (await target.api().get('/v1/facts?user_id=maya&predicate=lives_in')).body.facts;
      expect(live.map((f: any) => f.object)).toEqual(['Trondheim']);
      expect((await target.api().get(`/v1/memories/${added.body.id}`)).body.status).toBe('ready');

      // restoring the same file again is refused: the workspace exists
      const twice = admin(embeddedEnv(dataDir), 'workspace', 'restore', '--from', file);
      expect(twice.status).toBe(2);
      expect(twice.stderr).toContain('already has workspace test');
    } finally {
      await target.close();
    }
  });

  it('a restored data folder exports the same records and vectors as the original', async () => {
    const dataDir = tempDir();
    expect(admin(embeddedEnv(dataDir), 'workspace', 'restore', '--from', file).status).toBe(0);
    const again = join(tempDir(), 'again.jsonl');
    const second = admin(embeddedEnv(dataDir), 'workspace', 'export', '--workspace', 'test', '--to', again);
    expect(second.status, second.stderr).toBe(0);
    expectSameExport(file, again);
  });

  it('re-embeds the same memories when the target uses another embedder', async () => {
    const stub = await startOpenAIStub({ dimensions: 32 });
    try {
      const dataDir = tempDir();
      const openai = { ...embeddedEnv(dataDir), EMBEDDER: 'openai', OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'test', EMBEDDING_MODEL: 'stub-embed', EMBEDDING_DIMENSIONS: '32' };
      const restored = await adminAsync(openai, 'workspace', 'restore', '--from', file);
      expect(restored.status, restored.stderr).toBe(0);
      expect(restored.result).toMatchObject({ vectors: 're-embedded', embedder: expect.stringContaining('/32') });
      const again = join(tempDir(), 'reembedded.jsonl');
      const second = await adminAsync(openai, 'workspace', 'export', '--workspace', 'test', '--to', again);
      expect(second.status, second.stderr).toBe(0);
      expectSameExport(file, again, { vectors: 'ids' });
      const lines = exportLines(again);
      expect(lines[0].embedder).toBe(restored.result.embedder);
      expect(Buffer.from(lines.find((l) => l.kind === 'vector').vector, 'base64').length).toBe(32 * 4);
    } finally {
      await stub.close();
    }
  });

  it('refuses to export while acknowledged requests are not yet stored (a crash before the inbox was emptied)', async () => {
    const dataDir = tempDir();
    const store = SqliteStore.open(dataDir);
    await createKey(store, { workspace: 'test', plan: 'scale' });
    store.inbox.add(JSON.stringify({ memories: [], events: [], jobs: [] }));
    await store.close();
    const result = admin(embeddedEnv(dataDir), 'workspace', 'export', '--workspace', 'test', '--to', join(dataDir, 'out.jsonl'));
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain('1 acknowledged requests are still being stored');
  });

  it('refuses bad, truncated and foreign files with a clear message, and writes nothing', async () => {
    const dir = tempDir();
    const plain = gunzipSync(readFileSync(file)).toString('utf8');
    const lines = plain.trimEnd().split('\n');
    const cases: [string, string | Buffer, string][] = [
      ['truncated.jsonl.gz', readFileSync(file).subarray(0, Math.floor(readFileSync(file).length / 2)), 'truncated'],
      ['no-end.jsonl', `${lines.slice(0, -1).join('\n')}\n`, 'truncated'],
      ['cut-line.jsonl', plain.slice(0, plain.length - 200), ''],
      ['edited.jsonl', plain.replace('Bergen', 'Bremen'), 'checksum'],
      ['dropped.jsonl', `${[...lines.slice(0, 2), ...lines.slice(3)].join('\n')}\n`, 'damaged'],
      ['foreign.json', '{"hello": "world"}\n', 'not an Engram workspace export'],
      ['binary.db', readFileSync(join(source.dataDir, 'engram.db')).subarray(0, 4096), 'not'],
      ['newer.jsonl', plain.replace('"version":1', '"version":2'), 'format version 2'],
      ['bad-record.jsonl', plain.replace('"status":"ready"', '"status":"finished"'), 'status'],
    ];
    const dataDir = tempDir();
    for (const [name, content, message] of cases) {
      const path = join(dir, name);
      writeFileSync(path, content);
      const result = admin(embeddedEnv(dataDir), 'workspace', 'restore', '--from', path);
      expect(result.status, `${name}: ${result.stderr}`).toBe(2);
      expect(result.stderr, name).toContain(message);
      expect(result.stderr, name).not.toMatch(/\n\s+at /); // a message, not a stack trace
    }
    // nothing was written: the good file still restores into the same folder
    const good = admin(embeddedEnv(dataDir), 'workspace', 'restore', '--from', file);
    expect(good.status, good.stderr).toBe(0);
  });
});
