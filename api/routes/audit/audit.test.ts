import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

describe('GET /v1/audit', () => {
  it('lists audit rows newest first with filters and integer total; needs memories:read', async () => {
    const m = (await t.api().post('/v1/memories', { content: 'audited', user_id: 'au' })).body;
    await t.api().delete(`/v1/memories/${m.id}`);
    await t.api().delete('/v1/users/au/memories');
    const res = await t.api().get('/v1/audit');
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.events.map((e: any) => e.action)).toEqual(['user.erase', 'memory.forget']);
    expect(res.body.events[0]).toMatchObject({ ts: expect.any(String), actor: expect.stringMatching(/^key_/), result: 'ok', user_id: 'au' });
    expect((await t.api().get('/v1/audit?action=memory.forget')).body.total).toBe(1);
    expect((await t.api().get('/v1/audit?since=2999-01-01')).body.total).toBe(0);
    expect((await t.api().get('/v1/audit?limit=1001')).status).toBe(422);
    const writer = await t.keyFor({ workspace: 'test', scopes: ['memories:write'] });
    expect((await t.api(writer.key).get('/v1/audit')).status).toBe(403);
  });
});
