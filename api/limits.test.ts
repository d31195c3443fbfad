import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { startApiProcess, stopProcess } from '../test/support/processes.js';
import { testRedisUrl } from '../test/support/redis.js';

describe('plans and quotas', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(async () => t?.close());

  async function hobbyWorkspace(name: string) {
    const created = await t.keyFor({ workspace: name, plan: 'hobby' });
    const ws = (await t.services.store.workspaces.getBySlug(name))!;
    return { key: created.key, ws };
  }

  it('writes pass up to quota +10% then get 429 quota_exceeded without Retry-After; reads still work', async () => {
    const { key, ws } = await hobbyWorkspace('quota-writes');
    await t.services.limits.consume('write', ws.id, 'hobby', 1_099);
    const last = await t.api(key).post('/v1/memories', { content: 'the 1100th write' });
    expect(last.status).toBe(200);
    const over = await t.api(key).post('/v1/memories', { content: 'one too many' });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('quota_exceeded');
    expect(over.body.message).toContain('1000');
    expect(over.headers.get('retry-after')).toBeNull();
    expect(Object.keys(over.body).sort()).toEqual(['code', 'message']);
    // every write kind counts; reads are never blocked by the write quota
    expect((await t.api(key).post('/v1/batch', { memories: [{ content: 'x' }] })).status).toBe(429);
    expect((await t.api(key).post('/v1/memories/search', { query: 'write' })).status).toBe(200);
    expect((await t.api(key).get('/v1/context?query=write')).status).toBe(200);
    expect((await t.api(key).get('/v1/memories')).body.total).toBe(1);
  });

  it('a batch that does not fit the remaining quota is refused whole and consumes nothing', async () => {
    const { key, ws } = await hobbyWorkspace('quota-batch');
    await t.services.limits.consume('write', ws.id, 'hobby', 1_095);
    const batch = await t.api(key).post('/v1/batch', { memories: Array.from({ length: 10 }, (_, i) => ({ content: `item ${i}` })) });
    expect(batch.status).toBe(429);
    expect(batch.body.code).toBe('quota_exceeded');
    expect((await t.api(key).post('/v1/batch', { memories: Array.from({ length: 5 }, (_, i) => ({ content: `item ${i}` })) })).status).toBe(202);
  });

  it('queries pass up to the query quota +10% then 429', async () => {
    const { key, ws } = await hobbyWorkspace('quota-queries');
    await t.services.limits.consume('query', ws.id, 'hobby', 27_499);
    expect((await t.api(key).post('/v1/memories/search', { query: 'anything' })).status).toBe(200);
    const over = await t.api(key).get('/v1/context?query=anything');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ code: 'quota_exceeded', message: expect.stringContaining('25000') });
    // the write quota is separate
    expect((await t.api(key).post('/v1/memories', { content: 'still writable' })).status).toBe(200);
  });

  it('agent cap: a new agent past the cap is 403 agent_cap_exceeded and nothing is written', async () => {
    const { key } = await hobbyWorkspace('agents-cap');
    const api = t.api(key);
    expect((await api.post('/v1/memories', { content: 'a', agent_id: 'one' })).status).toBe(200);
    expect((await api.post('/v1/memories', { content: 'b', agent_id: 'two' })).status).toBe(200);
    expect((await api.post('/v1/memories', { content: 'c', agent_id: 'one' })).status).toBe(200);
    const over = await api.post('/v1/memories', { content: 'd', agent_id: 'three' });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('agent_cap_exceeded');
    expect((await api.get('/v1/memories')).body.total).toBe(3);
    const batch = await api.post('/v1/batch', { memories: [{ content: 'e', agent_id: 'three' }] });
    expect(batch.status).toBe(403);
    const ctx = await api.get('/v1/context?query=x&agent_id=four');
    expect(ctx.status).toBe(403);
    expect(ctx.body.code).toBe('agent_cap_exceeded');
    const agents = await api.get('/v1/agents');
    expect(agents.body).toMatchObject({ total: 2, cap: 2, used: 2 });
    // purging an agent frees its place
    const purge = await api.delete('/v1/agents/one');
    expect(purge.status).toBe(200);
    expect(purge.body).toMatchObject({ agent_id: 'one', memories_deleted: 2, facts_deleted: expect.any(Number) });
    expect(purge.body.audit_id).toMatch(/^aud_/);
    expect((await api.post('/v1/memories', { content: 'd', agent_id: 'three' })).status).toBe(200);
    expect((await api.delete('/v1/agents/one')).status).toBe(404);
  });
});

describe('per-second rate limit', () => {
  it('answers 429 rate_limit_exceeded with an integer Retry-After; ping is exempt', async () => {
    const t = await startTestServer({ RATE_LIMIT_PER_SECOND: '5' });
    try {
      const results = await Promise.all(Array.from({ length: 12 }, () => t.api().get('/v1/memories')));
      const limited = results.filter((r) => r.status === 429);
      expect(results.filter((r) => r.status === 200).length).toBe(5);
      expect(limited.length).toBe(7);
      expect(limited[0].body.code).toBe('rate_limit_exceeded');
      expect(limited[0].headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      const pings = await Promise.all(Array.from({ length: 8 }, () => t.api().get('/v1/ping')));
      expect(pings.every((r) => r.status === 200)).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('rate limits and quotas are shared with a second API process through Redis', async () => {
    const env = { REDIS_URL: testRedisUrl(), RATE_LIMIT_PER_SECOND: '6' };
    const a = await startTestServer(env);
    const b = await startApiProcess({ ...a.env, LOG_LEVEL: 'info', RUN_WORKERS: 'false' });
    try {
      const viaB = (key: string, path: string, init: RequestInit = {}) =>
        fetch(`${b.url}${path}`, { ...init, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' } });
      // per-second rate limit: 12 requests split across both processes, 6 allowed in total
      const statuses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? a.api(a.key).get('/v1/memories').then((r) => r.status) : viaB(a.key, '/v1/memories').then((r) => r.status))),
      );
      expect(statuses.filter((s) => s === 200).length).toBe(6);
      expect(statuses.filter((s) => s === 429).length).toBe(6);

      // monthly write quota: 1099 used through one process, the 1100th write lands on the other, then both refuse
      const created = await a.keyFor({ workspace: 'shared-quota', plan: 'hobby' });
      const ws = (await a.services.store.workspaces.getBySlug('shared-quota'))!;
      await a.services.limits.consume('write', ws.id, 'hobby', 1_099);
      await new Promise((r) => setTimeout(r, 1_100)); // a fresh second for the rate limit
      expect((await viaB(created.key, '/v1/memories', { method: 'POST', body: JSON.stringify({ content: 'via b' }) })).status).toBe(200);
      const refused = await a.api(created.key).post('/v1/memories', { content: 'via a' });
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('quota_exceeded');
      expect((await viaB(created.key, '/v1/memories', { method: 'POST', body: JSON.stringify({ content: 'via b again' }) })).status).toBe(429);
    } finally {
      await stopProcess(b.child);
      await a.close();
    }
  }, 60_000);
});

describe('when Redis is down', () => {
  it('requests that need it answer 503 quickly, never hang or 500', async () => {
    const t = await startTestServer({ REDIS_URL: 'redis://127.0.0.1:9' }, { runWorkers: false });
    try {
      const started = Date.now();
      const res = await t.api().post('/v1/memories', { content: 'cannot be queued' });
      expect(res.status).toBe(503);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await t.api().get('/v1/ping')).status).toBe(200);
      expect((await t.api().get('/readyz')).status).toBe(503);
      // nothing half-written is left behind
      expect((await t.services.store.memories.count({ workspaceId: (await t.services.store.workspaces.getBySlug('test'))!.id })).valueOf()).toBe(0);
    } finally {
      await t.close();
    }
  }, 30_000);
});
