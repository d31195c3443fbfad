import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  // Workers off: writes stay `processing` until they are started, so the event stream is observable.
  t = await startTestServer({}, { runWorkers: false });
});
afterAll(async () => t?.close());

describe('GET /v1/events', () => {
  it('reports processing writes, then ready once the pipeline ran', async () => {
    const a = (await t.api().post('/v1/memories', { content: 'I like climbing.', user_id: 'ev' })).body;
    expect(a.status).toBe('processing');
    const before = await t.api().get('/v1/events?user_id=ev');
    expect(before.status).toBe(200);
    expect(before.body.processing).toBe(1);
    expect(before.body.events[0]).toEqual({ memory_id: a.id, user_id: 'ev', agent_id: null, status: 'processing', created_at: a.created_at });
    await t.startWorkers();
    await t.settle();
    const after = await t.api().get('/v1/events?user_id=ev&status=ready');
    expect(after.body.processing).toBe(0);
    expect(after.body.events.map((e: any) => e.memory_id)).toEqual([a.id]);
    expect((await t.api().get('/v1/events?status=done')).status).toBe(422);
  });
});
