import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { onnxTestModel } from '../support/onnx-model.js';
import { SHARED_CACHE_DIR, startTestServer } from '../support/server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const model = await onnxTestModel();
if ('skip' in model) console.warn(`EMBEDDER=onnx server tests skipped: ${model.skip}`);
const scratch = mkdtempSync(join(tmpdir(), 'engram-onnx-http-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('EMBEDDER=onnx start-up', () => {
  it('stops with a message naming ONNX_MODEL_DIR when the folder has no model', () => {
    const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: join(scratch, 'data-bad'), EMBEDDER: 'onnx', ONNX_MODEL_DIR: scratch },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/ONNX_MODEL_DIR: .* has no model\.onnx/);
  });
});

describe.skipIf('skip' in model)('EMBEDDER=onnx over HTTP', () => {
  const onnx = () => ({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: 'dir' in model ? model.dir : '' });
  const contents = ['I keep bees on the roof of my building.', 'My bicycle is a green Bianchi.', 'I teach chemistry at a high school.'];

  it('takes over a GloVe store through reembed, then finds memories by meaning', async () => {
    const dataDir = join(scratch, 'data');
    const first = await startTestServer({}, { dataDir });
    const ids: string[] = [];
    for (const content of contents) ids.push((await first.api().post('/v1/memories', { content, user_id: 'u' })).body.id);
    await first.settle();
    const key = first.key;
    await first.close();

    await expect(startTestServer(onnx(), { dataDir })).rejects.toThrow(/npm run --silent admin -- reembed/);
    const reembed = spawnSync('npm', ['run', '--silent', 'admin', '--', 'reembed'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR, ...onnx() },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(reembed.status, reembed.stderr).toBe(0);
    expect(JSON.parse(reembed.stdout.trim().split('\n').pop()!)).toEqual({
      embedder: expect.stringMatching(/^onnx:all-MiniLM-L6-v2-int8@[0-9a-f]{12}\/384$/),
      reembedded: 3,
    });

    const server = await startTestServer(onnx(), { dataDir });
    try {
      const search = async (query: string) => (await server.api(key).post('/v1/memories/search', { query, user_id: 'u' })).body.results;
      // No word in common with the memory: only the embedding can connect them.
      expect((await search('Which insects do I raise?'))[0].id).toBe(ids[0]);
      expect((await search('What subject do I give lessons in?'))[0].id).toBe(ids[2]);
      // New writes are embedded by the pipeline thread's ONNX session.
      const added = (await server.api(key).post('/v1/memories', { content: 'My daughter plays the cello in an orchestra.', user_id: 'u' })).body;
      await server.settle(key);
      expect((await search('Which instrument does my kid perform on?'))[0].id).toBe(added.id);
    } finally {
      await server.close();
    }
  }, 120_000);
});
