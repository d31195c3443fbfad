import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /v1/memories', () => {
  it('stores content exactly as submitted and returns the memory shape', async () => {
    const content = '  I live in Berlin.\n\n**Markdown** stays _as is_ 🎉  ';
    const res = await t.api().post('/v1/memories', { content, user_id: 'alice', run_id: 'r1', metadata: { folder: 'notes', n: 1 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ content, user_id: 'alice', agent_id: null, run_id: 'r1', metadata: { folder: 'notes', n: 1 } });
    expect(res.body.id).toMatch(/^mem_/);
    expect(res.body.created_at).toMatch(ISO);
    expect(res.body.updated_at).toBe(res.body.created_at);
    expect(Array.isArray(res.body.facts)).toBe(true);
    expect(['processing', 'ready']).toContain(res.body.status);
  });

  it('defaults user_id, agent_id, run_id to null and metadata to {}', async () => {
    const res = await t.api().post('/v1/memories', { content: 'Just a note' });
    expect(res.body).toMatchObject({ user_id: null, agent_id: null, run_id: null, metadata: {} });
  });

  it('is not idempotent: identical content gives two memories', async () => {
    const a = await t.api().post('/v1/memories', { content: 'same text', user_id: 'dup' });
    const b = await t.api().post('/v1/memories', { content: 'same text', user_id: 'dup' });
    expect(a.body.id).not.toBe(b.body.id);
    const list = await t.api().get('/v1/memories?user_id=dup');
    expect(list.body.total).toBe(2);
  });

  it('reaches ready after the pipeline runs', async () => {
    const res = await t.api().post('/v1/memories', { content: 'My favourite colour is green.', user_id: 'status' });
    await t.settle();
    const got = await t.api().get(`/v1/memories/${res.body.id}`);
    expect(got.body.status).toBe('ready');
  });

  it.each([
    [{}, 'content: is required'],
    [{ content: '' }, 'content: must not be empty'],
    [{ content: '   ' }, 'content: must not be blank'],
    [{ content: 42 }, 'content: must be a string'],
    [{ content: 'x'.repeat(16_001) }, 'content: must be at most 16000 characters'],
    [{ content: 'ok', user_id: 5 }, 'user_id: must be a string'],
    [{ content: 'ok', metadata: [] }, 'metadata: must be an object'],
    [{ content: 'ok', timestamp: 'yesterday' }, 'timestamp: must be an ISO 8601 date or date-time'],
    [{ content: 'ok', colour: 'red' }, 'colour: unknown field'],
  ])('rejects %j with 422 invalid_request', async (body, message) => {
    const res = await t.api().post('/v1/memories', body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'invalid_request', message });
  });

  it('accepts content of exactly 16,000 characters', async () => {
    const res = await t.api().post('/v1/memories', { content: 'a'.repeat(16_000) });
    expect(res.status).toBe(200);
    expect(res.body.content.length).toBe(16_000);
  });
});

describe('GET /v1/memories', () => {
  it('lists newest first with integer total and offset paging', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.api().post('/v1/memories', { content: `page item ${i}`, user_id: 'pager' })).body.id);
    const first = await t.api().get('/v1/memories?user_id=pager&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.total).toBe(3);
    expect(first.body.memories.map((m: any) => m.id)).toEqual([ids[2], ids[1]]);
    const second = await t.api().get('/v1/memories?user_id=pager&limit=2&offset=2');
    expect(second.body.memories.map((m: any) => m.id)).toEqual([ids[0]]);
  });

  it.each(['limit=0', 'limit=201', 'limit=abc', 'offset=-1'])('rejects %s', async (qs) => {
    const res = await t.api().get(`/v1/memories?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('PATCH /v1/memories/{id}', () => {
  it('replaces content, keeps scope and metadata, changes updated_at and writes history', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'first', user_id: 'u-up', metadata: { keep: true } })).body;
    const res = await t.api().patch(`/v1/memories/${added.id}`, { content: 'second' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: added.id, content: 'second', user_id: 'u-up', agent_id: null, metadata: { keep: true }, created_at: added.created_at });
    expect(res.body.updated_at > added.updated_at).toBe(true);
    expect(Array.isArray(res.body.facts)).toBe(true);
    await t.settle();
    const history = await t.api().get(`/v1/memories/${added.id}/history`);
    expect(history.body.events.map((e: any) => e.event).filter((e: string) => e === 'created' || e === 'updated')).toEqual(['created', 'updated']);
  });

  it('changes updated_at even for identical content', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'same' })).body;
    const a = await t.api().patch(`/v1/memories/${added.id}`, { content: 'same' });
    const b = await t.api().patch(`/v1/memories/${added.id}`, { content: 'same' });
    expect(b.body.updated_at > a.body.updated_at).toBe(true);
  });

  it('honours expected_updated_at with 409 stale_write', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'v1' })).body;
    const ok = await t.api().patch(`/v1/memories/${added.id}`, { content: 'v2', expected_updated_at: added.updated_at });
    expect(ok.status).toBe(200);
    const stale = await t.api().patch(`/v1/memories/${added.id}`, { content: 'v3', expected_updated_at: added.updated_at });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('stale_write');
    expect((await t.api().get(`/v1/memories/${added.id}`)).body.content).toBe('v2');
  });

  it('refuses scope and metadata changes as unknown fields', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'scoped', user_id: 'a' })).body;
    for (const field of ['user_id', 'agent_id', 'run_id', 'metadata']) {
      const res = await t.api().patch(`/v1/memories/${added.id}`, { content: 'x', [field]: field === 'metadata' ? {} : 'b' });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(`${field}: unknown field`);
    }
  });

  it('gives 404 for unknown and forgotten memories and ids of any other shape, 422 for an oversized id and empty content', async () => {
    expect((await t.api().patch('/v1/memories/mem_doesnotexist', { content: 'x' })).status).toBe(404);
    const added = (await t.api().post('/v1/memories', { content: 'bye' })).body;
    await t.api().delete(`/v1/memories/${added.id}`);
    const gone = await t.api().patch(`/v1/memories/${added.id}`, { content: 'x' });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'not_found', message: 'Memory not found' });
    expect((await t.api().patch('/v1/memories/not-an-id', { content: 'x' })).status).toBe(404);
    const oversized = await t.api().patch(`/v1/memories/mem_${'a'.repeat(300)}`, { content: 'x' });
    expect(oversized.status).toBe(422);
    expect(oversized.body.message).toBe('id: must be at most 256 characters');
    expect((await t.api().patch(`/v1/memories/${added.id}`, { content: '' })).status).toBe(422);
  });
});

describe('DELETE /v1/memories/{id}', () => {
  it('forgets once, audits, and is not idempotent', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'I work at Siemens.', user_id: 'del' })).body;
    await t.settle();
    const res = await t.api().delete(`/v1/memories/${added.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: added.id, status: 'forgotten' });
    expect(Number.isInteger(res.body.facts_invalidated)).toBe(true);
    expect(res.body.audit_id).toMatch(/^aud_/);
    const again = await t.api().delete(`/v1/memories/${added.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ code: 'not_found', message: 'Memory not found' });
    expect((await t.api().get(`/v1/memories/${added.id}`)).status).toBe(404);
    const audit = await t.api().get('/v1/audit?action=memory.forget');
    expect(audit.body.events.some((e: any) => e.target_id === added.id)).toBe(true);
    const history = await t.api().get(`/v1/memories/${added.id}/history`);
    expect(history.body.events.at(-1).event).toBe('deleted');
  });

  it('drops the forgotten memory from list and search', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'zebra crossing near the old bakery', user_id: 'gone' })).body;
    await t.settle();
    await t.api().delete(`/v1/memories/${added.id}`);
    expect((await t.api().get('/v1/memories?user_id=gone')).body.total).toBe(0);
    const search = await t.api().post('/v1/memories/search', { query: 'zebra bakery', user_id: 'gone' });
    expect(search.body.results).toEqual([]);
  });

  it('gives 422 for a malformed id', async () => {
    const res = await t.api().delete('/v1/memories/%20');
    expect(res.status).toBe(422);
  });
});

describe('GET /v1/memories/{id}/history', () => {
  it('returns {id, events} and 404 for unknown ids', async () => {
    const added = (await t.api().post('/v1/memories', { content: 'history me' })).body;
    const res = await t.api().get(`/v1/memories/${added.id}/history`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(added.id);
    expect(res.body.events[0]).toMatchObject({ event: 'created' });
    expect(res.body.events[0].at).toMatch(ISO);
    expect((await t.api().get('/v1/memories/mem_nope/history')).status).toBe(404);
  });
});
