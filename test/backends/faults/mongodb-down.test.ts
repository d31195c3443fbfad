import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCreateKey, dropProductionData, productionEnv } from '../../support/backends.js';
import { OwnBackend } from '../../support/own-backend.js';
import { startApiProcess, startReadyWorker, stopProcess, type OutputProcess } from '../../support/processes.js';
import { ApiClient, type ApiResponse } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

/**
 * The MongoDB server (FerretDB, this file's own, on its SQLite files) killed under a running API and worker
 * process, then started again on the same port and data. Redis and Elasticsearch are the shared ones.
 */
let mongodb: OwnBackend;
let env: Record<string, string>;
let api: { child: OutputProcess; url: string };
let worker: OutputProcess;

beforeAll(async () => {
  mongodb = await OwnBackend.start('mongodb');
  // One attempt per stage: a write whose stage counted the outage as its own failure would end in `error`.
  env = productionEnv('mongodb-down', { MONGODB_URL: mongodb.url, JOB_LOCK_MS: '3000', JOB_ATTEMPTS: '1' });
  api = await startApiProcess(env);
  worker = await startReadyWorker(env);
});

afterAll(async () => {
  await Promise.all([worker && stopProcess(worker), api && stopProcess(api.child)]);
  if (env) await dropProductionData(env).catch(() => undefined);
  await mongodb?.close();
});

async function timed(request: Promise<ApiResponse>): Promise<ApiResponse & { ms: number }> {
  const started = Date.now();
  const res = await request;
  return { ...res, ms: Date.now() - started };
}

const readyMemory = (client: ApiClient, id: string) =>
  waitFor(async () => {
    const got = (await client.get(`/v1/memories/${id}`)).body;
    return got?.status === 'ready' ? got : undefined;
  }, 120_000, 250);

describe('production mode: MongoDB down', () => {
  it('answers 503 with Retry-After in the error shape, never a hang or a 500, and recovers without restarts', async () => {
    const client = new ApiClient(api.url, adminCreateKey(env, 'mongodb-down', 'scale').key);
    const committed = (await client.post('/v1/memories', { content: 'I live in Porto.', user_id: 'm' })).body.id;
    await readyMemory(client, committed);

    // Accepted just before the crash: its stages meet the outage.
    const batch = await client.post('/v1/batch', { memories: [1, 2, 3].map((i) => ({ content: `I work at Firm${i}m now.`, user_id: `m${i}` })) });
    expect(batch.status).toBe(202);
    await mongodb.kill();
    const requests: [string, Promise<ApiResponse>][] = [
      ['add', client.post('/v1/memories', { content: 'Refused while MongoDB is down.', user_id: 'm' })],
      ['get', client.get(`/v1/memories/${committed}`)],
      ['list', client.get('/v1/memories?user_id=m')],
      ['facts', client.get('/v1/facts?user_id=m')],
      ['search', client.post('/v1/memories/search', { query: 'Porto', user_id: 'm' })],
    ];
    for (const [name, request] of requests) {
      const res = await timed(request);
      expect(res.status, name).toBe(503);
      expect(res.body, name).toEqual({ code: 'service_unavailable', message: expect.any(String) });
      expect(res.headers.get('retry-after'), name).toMatch(/^[1-9]\d*$/);
      expect(res.ms, name).toBeLessThan(8_000);
    }

    await mongodb.restart();
    const after = await waitFor(async () => {
      const res = await client.post('/v1/memories', { content: 'I work at Sonae.', user_id: 'm' });
      return res.status === 200 ? res.body : undefined;
    }, 30_000, 250);
    expect((await readyMemory(client, after.id)).content).toBe('I work at Sonae.');
    expect((await client.get(`/v1/memories/${committed}`)).body.content).toBe('I live in Porto.');
    const listed = (await client.get('/v1/memories?user_id=m')).body;
    expect(listed.memories.map((m: any) => m.content).sort()).toEqual(['I live in Porto.', 'I work at Sonae.']);
    const done = await waitFor(async () => {
      const body = (await client.get(`/v1/batch/${batch.body.id}`)).body;
      return body.status === 'completed' ? body : undefined;
    }, 120_000, 250);
    expect(done).toMatchObject({ received: 3, imported: 3, failed: 0 });
    expect(worker.output()).toContain('database unreachable; the stage waits for it');
    for (const i of [1, 2, 3]) {
      const facts = (await client.get(`/v1/facts?user_id=m${i}&include_invalidated=true`)).body.facts;
      expect(facts.map((f: any) => `${f.predicate}:${f.object}`)).toEqual([`works_at:Firm${i}m`]);
    }
    expect(api.child.exitCode).toBeNull();
    expect(worker.exitCode).toBeNull();
  }, 180_000);
});
