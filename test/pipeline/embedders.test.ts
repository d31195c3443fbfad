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

    // Asynchronous: the OpenAI stub lives in this process and must keep answering.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('npm', ['run', '--silent', 'admin', '--', 'reembed'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR, ...openai() },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('exit', (status) => resolve({ status, stdout, stderr }));
    });
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
});
