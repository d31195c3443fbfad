import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const fact = (body: Record<string, unknown>) => t.api().post('/v1/facts', body);

describe('POST /v1/facts', () => {
  it('writes a structured fact in the write shape, canonicalising the predicate', async () => {
    const res = await fact({ subject: 'user', predicate: 'lives in', object: 'Berlin', user_id: 'pf1', valid_from: '2020-05-01T00:00:00Z' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      subject: 'user',
      predicate: 'lives_in',
      object: 'Berlin',
      predicate_family: 'places',
      valid_from: '2020-05-01T00:00:00.000Z',
      invalidated: [],
      user_id: 'pf1',
      agent_id: null,
    });
    expect(res.body.id).toMatch(/^fct_/);
  });

  it('runs the contradiction check: a single-valued predicate supersedes, the old fact becomes history', async () => {
    const berlin = (await fact({ subject: 'user', predicate: 'lives_in', object: 'Berlin', user_id: 'pf2', valid_from: '2020-01-01T00:00:00Z' })).body;
    const munich = (await fact({ subject: 'user', predicate: 'moved to', object: 'Munich', user_id: 'pf2', valid_from: '2022-01-01T00:00:00Z' })).body;
    expect(munich.invalidated).toEqual([berlin.id]);
    const live = (await t.api().get('/v1/facts?user_id=pf2')).body;
    expect(live.total).toBe(1);
    expect(live.facts[0]).toMatchObject({ id: munich.id, object: 'Munich', invalid_at: null, invalidated_by: null });
    expect(live.facts[0]).not.toHaveProperty('invalidated');
    const all = (await t.api().get('/v1/facts?user_id=pf2&include_invalidated=true')).body;
    expect(all.total).toBe(2);
    const old = all.facts.find((f: any) => f.id === berlin.id);
    expect(old.invalid_at).toBe('2022-01-01T00:00:00.000Z');
    expect(old.invalidated_by).toBe(munich.id);
    // point in time
    const then = (await t.api().get('/v1/facts?user_id=pf2&as_of=2021-06-01')).body;
    expect(then.facts.map((f: any) => f.object)).toEqual(['Berlin']);
    const now = (await t.api().get(`/v1/facts?user_id=pf2&as_of=${encodeURIComponent(new Date().toISOString())}`)).body;
    expect(now.facts.map((f: any) => f.object)).toEqual(['Munich']);
  });

  it('confirms a restated fact instead of duplicating it', async () => {
    const a = (await fact({ subject: 'user', predicate: 'works_at', object: 'Siemens', user_id: 'pf3' })).body;
    const b = (await fact({ subject: 'user', predicate: 'works at', object: 'siemens', user_id: 'pf3' })).body;
    expect(b.id).toBe(a.id);
    expect(b.invalidated).toEqual([]);
    const live = (await t.api().get('/v1/facts?user_id=pf3')).body;
    expect(live.total).toBe(1);
    expect(live.facts[0].observation_count).toBe(2);
  });

  it('a back-dated fact does not invalidate a newer live one but is stored already closed', async () => {
    await fact({ subject: 'user', predicate: 'lives_in', object: 'Rome', user_id: 'pf4', valid_from: '2023-01-01T00:00:00Z' });
    const older = (await fact({ subject: 'user', predicate: 'lives_in', object: 'Paris', user_id: 'pf4', valid_from: '2019-01-01T00:00:00Z' })).body;
    expect(older.invalidated).toEqual([]);
    const live = (await t.api().get('/v1/facts?user_id=pf4')).body;
    expect(live.facts.map((f: any) => f.object)).toEqual(['Rome']);
    const history = (await t.api().get('/v1/facts?user_id=pf4&include_invalidated=true')).body.facts.find((f: any) => f.id === older.id);
    expect(history.invalid_at).toBe('2023-01-01T00:00:00.000Z');
  });

  it('multi-valued predicates accumulate; opposites conflict', async () => {
    await fact({ subject: 'user', predicate: 'likes', object: 'jazz', user_id: 'pf5' });
    await fact({ subject: 'user', predicate: 'likes', object: 'sushi', user_id: 'pf5' });
    expect((await t.api().get('/v1/facts?user_id=pf5')).body.total).toBe(2);
    const dislike = (await fact({ subject: 'user', predicate: 'dislikes', object: 'Jazz', user_id: 'pf5' })).body;
    expect(dislike.invalidated.length).toBe(1);
    const objects = (await t.api().get('/v1/facts?user_id=pf5')).body.facts.map((f: any) => `${f.predicate}:${f.object}`).sort();
    expect(objects).toEqual(['dislikes:Jazz', 'likes:sushi']);
  });

  it.each([
    [{ predicate: 'likes', object: 'x' }, 'subject: is required'],
    [{ subject: 'user', predicate: '', object: 'x' }, 'predicate: must not be empty'],
    [{ subject: 'user', predicate: 'likes', object: 'x', confidence: 2 }, 'confidence: must be at most 1'],
    [{ subject: 'user', predicate: 'likes', object: 'x', tense: 'future' }, 'tense: must be one of "current", "past", "planned"'],
    [{ subject: 'user', predicate: 'likes', object: 'x', valid_from: 'x' }, 'valid_from: must be an ISO 8601 date or date-time'],
    [{ subject: 'user', predicate: 'likes', object: 'x', extra: 1 }, 'extra: unknown field'],
  ])('rejects %j', async (body, message) => {
    const res = await fact(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'invalid_request', message });
  });
});

describe('GET /v1/facts filters and paging', () => {
  it('filters by subject, entity, predicate, family and pages with a stable order', async () => {
    const u = 'pf6';
    await fact({ subject: 'user', predicate: 'married_to', object: 'Anna', user_id: u, valid_from: '2015-01-01T00:00:00Z' });
    await fact({ subject: 'Anna', predicate: 'works_at', object: 'Bosch', user_id: u, valid_from: '2016-01-01T00:00:00Z' });
    await fact({ subject: 'user', predicate: 'likes', object: 'tea', user_id: u, valid_from: '2017-01-01T00:00:00Z' });
    const get = async (qs: string) => (await t.api().get(`/v1/facts?user_id=${u}&${qs}`)).body;
    expect((await get('entity=anna')).facts.map((f: any) => f.predicate).sort()).toEqual(['married_to', 'works_at']);
    expect((await get('subject=Anna')).total).toBe(1);
    expect((await get('predicate=likes')).total).toBe(1);
    expect((await get('predicate_family=work')).facts[0].object).toBe('Bosch');
    const page1 = await get('limit=2');
    const page2 = await get('limit=2&offset=2');
    expect(page1.total).toBe(3);
    expect([...page1.facts, ...page2.facts].map((f: any) => f.object)).toEqual(['tea', 'Bosch', 'Anna']);
  });

  it.each(['predicate_family=nope', 'limit=0', 'limit=201', 'as_of=notadate', 'include_invalidated=maybe'])('rejects %s with 422', async (qs) => {
    const res = await t.api().get(`/v1/facts?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
  });
});

describe('POST /v1/facts/{id}/forget and PATCH /v1/facts/{id}', () => {
  it('forget is idempotent and rejects an `at` before valid_from', async () => {
    const f = (await fact({ subject: 'user', predicate: 'owns', object: 'a bike', user_id: 'pf7', valid_from: '2021-01-01T00:00:00Z' })).body;
    expect((await t.api().post(`/v1/facts/${f.id}/forget`, { at: '2020-01-01T00:00:00Z' })).status).toBe(422);
    const first = await t.api().post(`/v1/facts/${f.id}/forget`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: f.id, status: 'forgotten', invalid_at: expect.any(String) });
    expect(first.body.audit_id).toMatch(/^aud_/);
    const second = await t.api().post(`/v1/facts/${f.id}/forget`, {});
    expect(second.body).toMatchObject({ id: f.id, status: 'already_forgotten', invalid_at: first.body.invalid_at, audit_id: first.body.audit_id });
    expect((await t.api().get('/v1/facts?user_id=pf7')).body.total).toBe(0);
    expect((await t.api().post('/v1/facts/fct_missing/forget', {})).status).toBe(404);
  });

  it('PATCH corrects a live fact, restating is a no-op, correcting history is 409 fact_not_current', async () => {
    const f = (await fact({ subject: 'user', predicate: 'lives_in', object: 'Madird', user_id: 'pf8' })).body;
    const same = await t.api().patch(`/v1/facts/${f.id}`, { object: 'madird' });
    expect(same.body).toMatchObject({ id: f.id, invalidated: [] });
    const fixed = await t.api().patch(`/v1/facts/${f.id}`, { object: 'Madrid' });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({ object: 'Madrid', invalidated: [f.id] });
    const again = await t.api().patch(`/v1/facts/${f.id}`, { object: 'Madrid' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('fact_not_current');
    expect((await t.api().patch(`/v1/facts/${fixed.body.id}`, {})).status).toBe(422);
  });
});

describe('GET /v1/profile', () => {
  it('groups live facts by family and requires user_id', async () => {
    await fact({ subject: 'user', predicate: 'likes', object: 'hiking', user_id: 'pf9' });
    await fact({ subject: 'user', predicate: 'works_at', object: 'ACME', user_id: 'pf9' });
    const res = await t.api().get('/v1/profile?user_id=pf9');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user_id: 'pf9', total: 2, truncated: false });
    expect(res.body.by_family.preferences.map((f: any) => f.object)).toEqual(['hiking']);
    expect(res.body.by_family.work.map((f: any) => f.object)).toEqual(['ACME']);
    expect((await t.api().get('/v1/profile')).status).toBe(422);
  });
});

describe('GET /v1/facts?entity= through the entity graph', () => {
  it('finds facts about a person by name or by an alias the extractor recorded', async () => {
    await t.api().post('/v1/memories', { content: 'My sister Anna lives in Rome.', user_id: 'graph' });
    await t.settle();
    const byName = (await t.api().get('/v1/facts?user_id=graph&entity=Anna')).body.facts.map((f: any) => `${f.subject} ${f.predicate} ${f.object}`).sort();
    expect(byName).toEqual(['Anna lives_in Rome', 'user has_sister Anna']);
    const byAlias = (await t.api().get('/v1/facts?user_id=graph&entity=sister')).body.facts.map((f: any) => `${f.subject} ${f.predicate} ${f.object}`).sort();
    expect(byAlias).toEqual(byName);
    expect((await t.api().get('/v1/facts?user_id=graph&entity=rome')).body.total).toBe(1);
    expect((await t.api().get('/v1/facts?user_id=graph&entity=brother')).body.total).toBe(0);
  });
});
