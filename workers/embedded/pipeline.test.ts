import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../core/ids.js';
import { startTestServer, type TestServer } from '../../test/support/server.js';
import { runPipeline } from './pipeline.js';

let t: TestServer;
beforeAll(async () => {
  // No runner: the test drives one write's pipeline itself.
  t = await startTestServer({ PIPELINE_THREADS: '0' }, { runWorkers: false, mode: 'embedded' });
});
afterAll(() => t?.close());

describe('a pipeline run standing back for more urgent work', () => {
  it('starts no stage until beforeStage lets it, then runs the write to the end', async () => {
    const memory = (await t.api().post('/v1/memories', { content: 'I moved to Porto last spring.', user_id: 'stand-back' })).body;
    const ref = { workspaceId: await workspaceOf(t), memoryId: memory.id, version: 1 };
    const stagesStarted: string[] = [];
    const extractor = t.services.pipeline.factExtractor;
    const extractFacts = extractor.extractFacts.bind(extractor);
    extractor.extractFacts = async (input) => {
      stagesStarted.push('facts');
      return extractFacts(input);
    };
    let letGo!: () => void;
    const urgentWorkDone = new Promise<void>((resolve) => (letGo = resolve));
    const run = runPipeline(t.services.pipeline, ref, 'test-owner', { beforeStage: () => urgentWorkDone });
    await new Promise((r) => setTimeout(r, 100));
    expect(stagesStarted).toEqual([]);
    expect((await t.api().get(`/v1/memories/${memory.id}`)).body.status).toBe('processing');
    letGo();
    await run;
    expect(stagesStarted).toEqual(['facts']);
    expect((await t.api().get(`/v1/memories/${memory.id}`)).body.status).toBe('ready');
  });
});

async function workspaceOf(server: TestServer): Promise<string> {
  return (await server.services.store.keys.getByHash(hashApiKey(server.key)))!.workspaceId;
}
