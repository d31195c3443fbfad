import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCreateKey, dropProductionData, productionEnv, productionStoredText } from '../../support/backends.js';
import { OwnBackend } from '../../support/own-backend.js';
import { startApiProcess, startReadyWorker, stopProcess, type OutputProcess } from '../../support/processes.js';
import { ApiClient, type ApiResponse } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

/**
 * Redis killed (SIGKILL) under a running production deployment, one API and one worker process, and started again
 * on the same port and append-only file. The Redis is this file's own: FerretDB and Elasticsearch are the shared ones.
 */
let redis: OwnBackend;
let env: Record<string, string>;
let api: { child: OutputProcess; url: string };
let worker: OutputProcess;

beforeAll(async () => {
  redis = await OwnBackend.start('redis');
  env = productionEnv('redis-down', { REDIS_URL: redis.url, JOB_LOCK_MS: '3000', JOB_ATTEMPTS: '12' });
  api = await startApiProcess(env);
  worker = await startReadyWorker(env);
});

afterAll(async () => {
  await Promise.all([worker && stopProcess(worker), api && stopProcess(api.child)]);
  await redis?.close();
  if (env) await dropProductionData(env).catch(() => undefined);
});

async function timed(request: Promise<ApiResponse>): Promise<ApiResponse & { ms: number }> {
  const started = Date.now();
  const res = await request;
  return { ...res, ms: Date.now() - started };
}

function expectRetryableRefusal(res: ApiResponse & { ms: number }) {
  expect(res.status).toBe(503);
  expect(res.body).toEqual({ code: 'service_unavailable', message: expect.any(String) });
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(res.ms).toBeLessThan(5_000);
}

const readyMemory = (client: ApiClient, id: string) =>
  waitFor(async () => {
    const got = (await client.get(`/v1/memories/${id}`)).body;
    return got?.status === 'ready' ? got : undefined;
  }, 120_000, 250);

describe('production mode: Redis down', () => {
  it('refuses writes and erasures with 503 + Retry-After, keeps serving reads, loses nothing accepted, and recovers without restarts', async () => {
    const client = new ApiClient(api.url, adminCreateKey(env, 'redis-down', 'scale').key);
    const committed = (await client.post('/v1/memories', { content: 'I live in Porto.', user_id: 'r' })).body.id;
    await readyMemory(client, committed);
    const toErase = (await client.post('/v1/memories', { content: 'I live in Zanzibarville.', user_id: 'leaving' })).body.id;
    await readyMemory(client, toErase);

    // Accepted just before the crash: somewhere between the queue and the commit when Redis dies.
    const jobs = Array.from({ length: 4 }, (_, i) => ({ content: `I work at Company${i}x7 now.`, user_id: 'r' }));
    const batch = await client.post('/v1/batch', { memories: jobs });
    expect(batch.status).toBe(202);
    await redis.kill();

    expectRetryableRefusal(await timed(client.post('/v1/memories', { content: 'Refused while Redis is down.', user_id: 'r' })));
    expectRetryableRefusal(await timed(client.post('/v1/batch', { memories: [{ content: 'Refused batch item.', user_id: 'r' }] })));
    expectRetryableRefusal(await timed(client.patch(`/v1/memories/${committed}`, { content: 'I live in Lisbon.' })));
    // An erasure cannot remove the user's queue entries now: refused, and the retry below finishes it.
    expectRetryableRefusal(await timed(client.delete('/v1/users/leaving/memories')));

    const read = await timed(client.get(`/v1/memories/${committed}`));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ content: 'I live in Porto.', status: 'ready' });
    expect(read.ms).toBeLessThan(5_000);
    // The refused update left nothing behind: no new version, no `updated` event.
    expect((await client.get(`/v1/memories/${committed}/history`)).body.events.map((e: any) => e.event)).not.toContain('updated');
    const listed = await client.get('/v1/memories?user_id=r&limit=50');
    expect(listed.status).toBe(200);
    expect(listed.body.total).toBe(1 + jobs.length);
    expect((await client.get('/v1/facts?user_id=r&predicate=lives_in')).body.facts.map((f: any) => f.object)).toEqual(['Porto']);
    const search = await client.post('/v1/memories/search', { query: 'Porto', user_id: 'r' });
    expect(search.status).toBe(200);
    expect(search.body.results.map((r: any) => r.id)).toContain(committed);
    expect((await client.get('/v1/context?query=home&user_id=r')).status).toBe(200);

    await redis.restart();
    // The same API and worker processes carry on.
    const after = await waitFor(async () => {
      const res = await client.post('/v1/memories', { content: 'I work at Sonae.', user_id: 'r' });
      return res.status === 200 ? res.body : undefined;
    }, 30_000, 250);
    for (const id of (await client.get('/v1/memories?user_id=r&limit=50')).body.memories.map((m: any) => m.id)) await readyMemory(client, id);
    const erased = await client.delete('/v1/users/leaving/memories');
    expect(erased.status).toBe(200);
    expect(erased.body.memories_forgotten).toBe(1);
    const stored = await productionStoredText(env);
    expect(stored).not.toContain('Zanzibarville');
    // Not its history either: the refused attempt must not have left records the retry can no longer find.
    expect(stored).not.toContain(toErase);
    expect(api.child.exitCode).toBeNull();
    expect(worker.exitCode).toBeNull();

    // Everything accepted was processed exactly once; nothing refused was stored.
    const memories = (await client.get('/v1/memories?user_id=r&limit=50')).body;
    expect(memories.total).toBe(1 + jobs.length + 1);
    expect(memories.memories.map((m: any) => m.content)).not.toContain('Refused while Redis is down.');
    expect(memories.memories.map((m: any) => m.id)).toContain(after.id);
    const employers = (await client.get('/v1/facts?user_id=r&predicate=works_at&include_invalidated=true&limit=50')).body.facts.map((f: any) => f.object);
    expect(employers.sort()).toEqual(['Company0x7', 'Company1x7', 'Company2x7', 'Company3x7', 'Sonae']);
    for (const m of memories.memories) {
      const events = (await client.get(`/v1/memories/${m.id}/history`)).body.events.map((e: any) => e.event);
      expect(events.filter((e: string) => e === 'created')).toHaveLength(1);
      expect(events.filter((e: string) => e === 'fact_extracted')).toHaveLength(1);
    }
  }, 240_000);
});
