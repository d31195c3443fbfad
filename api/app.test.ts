import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const invalidKey = { code: 'invalid_key', message: 'Invalid or missing API key' };

describe('authentication', () => {
  it.each([
    ['missing', undefined],
    ['malformed', 'Token abc'],
    ['empty bearer', 'Bearer '],
    ['unknown key', 'Bearer eng_unknown'],
  ])('%s Authorization gives 401 invalid_key', async (_name, header) => {
    const res = await t.api(null).request('GET', '/v1/ping', undefined, header ? { Authorization: header } : {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidKey);
  });

  it('revoked keys give 401', async () => {
    const created = await t.keyFor({ workspace: 'revoke-me' });
    expect((await t.api(created.key).get('/v1/ping')).status).toBe(200);
    await t.services.store.keys.revoke(created.key_id, new Date().toISOString());
    const res = await t.api(created.key).get('/v1/ping');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(invalidKey);
  });

  it('ping answers {ok, tier, region, scopes}', async () => {
    const res = await t.api().get('/v1/ping');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, tier: 'scale', region: expect.any(String), scopes: ['memories:read', 'memories:write'] });
  });

  it('a key without memories:write gets 403 forbidden on writes and erasure', async () => {
    const reader = await t.keyFor({ workspace: 'test', scopes: ['memories:read'] });
    const add = await t.api(reader.key).post('/v1/memories', { content: 'nope' });
    expect(add.status).toBe(403);
    expect(add.body.code).toBe('forbidden');
    const erase = await t.api(reader.key).delete('/v1/users/someone/memories');
    expect(erase.status).toBe(403);
    expect(erase.body.code).toBe('forbidden');
    expect((await t.api(reader.key).get('/v1/memories')).status).toBe(200);
  });
});

describe('error shapes', () => {
  it('unknown paths are 404 not_found with exactly {code, message}', async () => {
    for (const path of ['/v1/nope', '/nope', '/v1/memories/mem_x/nope']) {
      const res = await t.api().get(path);
      expect(res.status).toBe(404);
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('unsupported methods on known paths are 405 method_not_allowed', async () => {
    for (const [method, path] of [
      ['PUT', '/v1/memories'],
      ['DELETE', '/v1/memories'],
      ['GET', '/v1/batch'],
      ['POST', '/v1/context'],
      ['PUT', '/v1/memories/mem_abc'],
      ['GET', '/v1/memories/search'],
    ]) {
      const res = await t.api().request(method, path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body).toEqual({ code: 'method_not_allowed', message: expect.any(String) });
    }
  });

  it('invalid JSON, wrong content type, non-object and oversized bodies are 422', async () => {
    const cases: [string, string | undefined, string][] = [
      ['{"content": ', 'application/json', 'body: invalid JSON'],
      ['content=hello', 'application/x-www-form-urlencoded', 'body: Content-Type must be application/json'],
      ['hello', 'text/plain', 'body: Content-Type must be application/json'],
      ['[1,2]', 'application/json', 'body: must be an object'],
      ['"str"', 'application/json', 'body: invalid JSON'],
    ];
    for (const [body, type, message] of cases) {
      const res = await t.api().request('POST', '/v1/memories', body, type ? { 'Content-Type': type } : {});
      expect(res.status, body).toBe(422);
      expect(res.body).toEqual({ code: 'invalid_request', message });
    }
    const huge = JSON.stringify({ content: 'x'.repeat(13 * 1024 * 1024) });
    const res = await t.api().request('POST', '/v1/memories', huge);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'invalid_request', message: 'body: request body is too large' });
  });

  it('percent-encoded path ids are decoded as one segment', async () => {
    const add = await t.api().post('/v1/memories', { content: 'mail user note', user_id: 'maria@example.com' });
    expect(add.status).toBe(200);
    const erase = await t.api().delete('/v1/users/maria%40example.com/memories');
    expect(erase.status).toBe(200);
    expect(erase.body.user_id).toBe('maria@example.com');
    expect(erase.body.memories_forgotten).toBe(1);
    await t.api().post('/v1/memories', { content: 'slash user', user_id: 'a/b' });
    const slash = await t.api().delete('/v1/users/a%2Fb/memories');
    expect(slash.status).toBe(200);
    expect(slash.body).toMatchObject({ user_id: 'a/b', memories_forgotten: 1 });
  });
});

describe('tenant isolation', () => {
  it("another workspace's resources are 404 everywhere", async () => {
    const other = await t.keyFor({ workspace: 'other-tenant' });
    const mine = (await t.api().post('/v1/memories', { content: 'I live in Lisbon.', user_id: 'shared-user' })).body;
    await t.settle();
    const facts = (await t.api().get('/v1/facts?user_id=shared-user')).body.facts;
    const them = t.api(other.key);
    expect((await them.get(`/v1/memories/${mine.id}`)).status).toBe(404);
    expect((await them.patch(`/v1/memories/${mine.id}`, { content: 'x' })).status).toBe(404);
    expect((await them.delete(`/v1/memories/${mine.id}`)).status).toBe(404);
    expect((await them.get(`/v1/memories/${mine.id}/history`)).status).toBe(404);
    expect((await them.get('/v1/memories?user_id=shared-user')).body.total).toBe(0);
    expect((await them.get('/v1/facts?user_id=shared-user')).body.total).toBe(0);
    expect((await them.post('/v1/memories/search', { query: 'Lisbon', user_id: 'shared-user' })).body.results).toEqual([]);
    expect((await them.get('/v1/context?query=Lisbon&user_id=shared-user')).body.sources).toEqual([]);
    for (const fact of facts) {
      expect((await them.post(`/v1/facts/${fact.id}/forget`, {})).status).toBe(404);
      expect((await them.patch(`/v1/facts/${fact.id}`, { object: 'Porto' })).status).toBe(404);
    }
    const erase = await them.delete('/v1/users/shared-user/memories');
    expect(erase.body.memories_forgotten).toBe(0);
    expect((await t.api().get(`/v1/memories/${mine.id}`)).status).toBe(200);
  });
});

describe('health', () => {
  it('serves /healthz and /readyz without a key', async () => {
    expect((await t.api(null).get('/healthz')).body).toEqual({ ok: true });
    const ready = await t.api(null).get('/readyz');
    expect(ready.status).toBe(200);
  });
});
