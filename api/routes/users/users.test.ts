import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

describe('DELETE /v1/users/{end_user}/memories', () => {
  it('physically removes the user within the key namespace and writes one content-free audit row', async () => {
    const api = t.api();
    await api.post('/v1/memories', { content: 'I live in Vienna and I love opera.', user_id: 'erase-me' });
    await api.post('/v1/memories', { content: 'My sister Anna works at Siemens.', user_id: 'erase-me' });
    await api.post('/v1/memories', { content: 'I live in Oslo.', user_id: 'keep-me' });
    await t.settle();
    const liveFacts = (await api.get('/v1/facts?user_id=erase-me')).body.total;

    const res = await api.delete('/v1/users/erase-me/memories');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user_id: 'erase-me',
      memories_forgotten: 2,
      facts_invalidated: liveFacts,
      memories_deleted: 2,
      facts_deleted: liveFacts,
      erasure: 'permanent',
    });
    expect(res.body.audit_id).toMatch(/^aud_/);

    expect((await api.get('/v1/memories?user_id=erase-me')).body.total).toBe(0);
    expect((await api.get('/v1/facts?user_id=erase-me&include_invalidated=true')).body.total).toBe(0);
    expect((await api.post('/v1/memories/search', { query: 'Vienna opera', user_id: 'erase-me' })).body.results).toEqual([]);
    expect((await api.get('/v1/context?query=Vienna&user_id=erase-me')).body).toMatchObject({ context: '', tokens: 0, sources: [] });
    expect((await api.get('/v1/users')).body.users.map((u: any) => u.user_id)).not.toContain('erase-me');
    expect((await api.get('/v1/memories?user_id=keep-me')).body.total).toBe(1);

    // nothing of the user's content survives in what the deployment stored
    const dump = await t.storedText();
    expect(dump).not.toContain('Vienna');
    expect(dump).not.toContain('Anna');

    const audit = await api.get('/v1/audit?action=user.erase&user_id=erase-me');
    expect(audit.body.total).toBe(1);
    expect(audit.body.events[0]).toMatchObject({ user_id: 'erase-me', meta: { memories_forgotten: 2, facts_invalidated: liveFacts } });
    expect(JSON.stringify(audit.body)).not.toContain('Vienna');
  });

  it('an unknown user is 200 with zero counts and a fresh audit row each call', async () => {
    const a = await t.api().delete('/v1/users/nobody/memories');
    const b = await t.api().delete('/v1/users/nobody/memories');
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ user_id: 'nobody', memories_forgotten: 0, facts_invalidated: 0 });
    expect(a.body.audit_id).not.toBe(b.body.audit_id);
    expect((await t.api().get('/v1/audit?user_id=nobody')).body.total).toBe(2);
  });

  it('an agent-bound key erases only its own agent namespace', async () => {
    const bot = await t.keyFor({ workspace: 'test', agentId: 'bot-a' });
    await t.api().post('/v1/memories', { content: 'default namespace note', user_id: 'multi' });
    const own = await t.api(bot.key).post('/v1/memories', { content: 'bot note', user_id: 'multi' });
    expect(own.body.agent_id).toBe('bot-a');
    const res = await t.api(bot.key).delete('/v1/users/multi/memories');
    expect(res.body.memories_forgotten).toBe(1);
    expect((await t.api().get('/v1/memories?user_id=multi')).body.total).toBe(1);
  });

  it('an empty or blank path segment is 422 naming end_user', async () => {
    const res = await t.api().delete('/v1/users/%20/memories');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
    expect(res.body.message).toBe('end_user: must not be blank');
    const empty = await t.api().delete('/v1/users//memories');
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe('end_user: must not be empty');
  });
});

describe('GET /v1/users', () => {
  it('lists users with active counts', async () => {
    await t.api().post('/v1/memories', { content: 'counting one', user_id: 'counted' });
    await t.api().post('/v1/memories', { content: 'counting two', user_id: 'counted' });
    await t.settle();
    const res = await t.api().get('/v1/users?limit=200');
    expect(res.status).toBe(200);
    expect(Number.isInteger(res.body.total)).toBe(true);
    const row = res.body.users.find((u: any) => u.user_id === 'counted');
    expect(row).toMatchObject({ memories: 2, facts: expect.any(Number), last_active: expect.any(String) });
  });
});
