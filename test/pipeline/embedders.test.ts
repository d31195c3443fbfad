import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStub, type OpenAIStub } from '../support/openai-stub.js';
import { SHARED_CACHE_DIR, startTestServer } from '../support/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
let stub: OpenAIStub;
let dataDir: string;
beforeAll(async () => {
  stub = await startOpenAIStub({ dimensions: 64 });
  dataDir = mkdtempSync(join(tmpdir(), 'engram-embedders-'));
});
afterAll(async () => {
  await stub?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm run --silent admin -- reembed`, asynchronously: the OpenAI stub lives in this process and must keep answering. */
function reembed(dir: string, env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', '--silent', 'admin', '--', 'reembed'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dir, CACHE_DIR: SHARED_CACHE_DIR, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('switching embedders', () => {
  const openai = () => ({ EMBEDDER: 'openai', OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'test', EMBEDDING_MODEL: 'stub-embed', EMBEDDING_DIMENSIONS: '64' });
  const contents = ['I keep bees on the roof.', 'My bicycle is a green Bianchi.', 'I teach chemistry at a high school.'];

  it('refuses to start with another embedder, then re-embeds everything through the admin command', async () => {
    const first = await startTestServer({}, { dataDir });
    const ids: string[] = [];
    for (const content of contents) ids.push((await first.api().post('/v1/memories', { content, user_id: 'e' })).body.id);
    await first.settle();
    const key = first.key;
    await first.close();

    await expect(startTestServer(openai(), { dataDir })).rejects.toThrow(/npm run --silent admin -- reembed/);

    const run = await reembed(dataDir, openai());
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual({ embedder: 'openai:stub-embed/64', reembedded: 3 });
    expect(run.stderr).toContain('"reembedded":3');
    expect(stub.requests.filter((r) => r.path.endsWith('/embeddings')).length).toBeGreaterThan(0);

    const second = await startTestServer(openai(), { dataDir });
    try {
      // the stub's vectors are hashes of the text: an exact restatement is the nearest neighbour
      const hits = (await second.api(key).post('/v1/memories/search', { query: contents[1], user_id: 'e' })).body.results;
      expect(hits[0].id).toBe(ids[1]);
      expect(hits[0].score).toBeCloseTo(1, 5);
      // new writes go through the OpenAI-compatible embedder too
      const added = (await second.api(key).post('/v1/memories', { content: 'I collect vinyl records.', user_id: 'e' })).body;
      await second.settle(key);
      const again = (await second.api(key).post('/v1/memories/search', { query: 'I collect vinyl records.', user_id: 'e' })).body.results;
      expect(again[0].id).toBe(added.id);
    } finally {
      await second.close();
    }
  }, 90_000);

  it('keeps a store made by GloVe (the earlier default) on GloVe under EMBEDDER=auto until re-embedded, then moves it to the model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-embedders-auto-'));
    try {
      const old = await startTestServer({ EMBEDDER: 'glove' }, { dataDir: dir });
      const ids: string[] = [];
      for (const content of contents) ids.push((await old.api().post('/v1/memories', { content, user_id: 'e' })).body.id);
      await old.settle();
      const key = old.key;
      await old.close();

      const search = async (env: Record<string, string>) => {
        const server = await startTestServer(env, { dataDir: dir });
        try {
          return (await server.api(key).post('/v1/memories/search', { query: 'what does the user teach', user_id: 'e' })).body.results;
        } finally {
          await server.close();
        }
      };
      // The upgrade starts and answers from the GloVe vectors it has.
      expect((await search({}))[0].id).toBe(ids[2]);

      const run = await reembed(dir, {});
      expect(run.status, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toMatchObject({ embedder: expect.stringMatching(/^onnx:embedder@[0-9a-f]{12}\*[\d.]+\+glove-/), reembedded: 3 });
      expect((await search({}))[0].id).toBe(ids[2]);
      // Now the store is the model's: GloVe alone no longer matches it.
      await expect(startTestServer({ EMBEDDER: 'glove' }, { dataDir: dir })).rejects.toThrow(/npm run --silent admin -- reembed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
