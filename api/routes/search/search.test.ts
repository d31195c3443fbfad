import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const items = [
    { content: 'I adopted a beagle puppy named Max.', user_id: 's1', metadata: { folder: 'pets' } },
    { content: 'My cat sleeps all day on the sofa.', user_id: 's1', metadata: { folder: 'pets' } },
    { content: 'I work as a nurse in the night shift.', user_id: 's1' },
    { content: 'I adopted a beagle puppy named Max.', user_id: 's2', agent_id: 'bot' },
    { content: 'x'.repeat(50) + ' ' + 'long text about gardening and tomatoes. '.repeat(30), user_id: 's3' },
  ];
  const batch = (await t.api().post('/v1/batch', { memories: items })).body;
  for (;;) {
    if ((await t.api().get(`/v1/batch/${batch.id}`)).body.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 20));
  }
});
afterAll(async () => t?.close());

const search = (body: unknown) => t.api().post('/v1/memories/search', body);

describe('POST /v1/memories/search', () => {
  it('returns only {results}, ordered by score in [0, 1], with the hit shape', async () => {
    const res = await search({ query: 'dog', user_id: 's1' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['results']);
    const [top] = res.body.results;
    expect(top.snippet).toContain('beagle');
    expect(Object.keys(top).sort()).toEqual(['agent_id', 'id', 'metadata', 'score', 'snippet', 'user_id']);
    expect(top).toMatchObject({ user_id: 's1', agent_id: null, metadata: { folder: 'pets' } });
    const scores = res.body.results.map((r: any) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true);
  });

  it('ANDs scope filters and never broadens', async () => {
    const all = (await search({ query: 'beagle puppy' })).body.results.map((r: any) => r.user_id);
    expect(all).toEqual(expect.arrayContaining(['s1', 's2']));
    const s2 = (await search({ query: 'beagle puppy', user_id: 's2' })).body.results;
    expect(s2.map((r: any) => r.user_id)).toEqual(['s2']);
    expect((await search({ query: 'beagle puppy', user_id: 's1', agent_id: 'bot' })).body.results).toEqual([]);
    expect((await search({ query: 'beagle puppy', agent_id: 'bot' })).body.results.map((r: any) => r.user_id)).toEqual(['s2']);
    const pets = (await search({ query: 'animals', metadata: { folder: 'pets' } })).body.results;
    expect(pets.length).toBe(2);
  });

  it('ranks identically for the same request, and honours limit', async () => {
    const a = (await search({ query: 'pets at home', limit: 50 })).body.results.map((r: any) => [r.id, r.score]);
    const b = (await search({ query: 'pets at home', limit: 50 })).body.results.map((r: any) => [r.id, r.score]);
    expect(a).toEqual(b);
    expect((await search({ query: 'pets', limit: 1 })).body.results).toHaveLength(1);
  });

  it('cuts snippets to at most 280 characters', async () => {
    const [hit] = (await search({ query: 'gardening tomatoes', user_id: 's3' })).body.results;
    expect(hit.snippet.length).toBeLessThanOrEqual(280);
    expect(hit.snippet.length).toBeGreaterThan(200);
  });

  it('an empty match is {results: []}', async () => {
    expect((await search({ query: 'anything', user_id: 'nobody' })).body).toEqual({ results: [] });
  });

  it.each([
    [{}, 'query: is required'],
    [{ query: '' }, 'query: must not be empty'],
    [{ query: 5 }, 'query: must be a string'],
    [{ query: 'a', limit: 0 }, 'limit: must be at least 1'],
    [{ query: 'a', limit: 51 }, 'limit: must be at most 50'],
    [{ query: 'a', limit: 2.5 }, 'limit: must be an integer'],
    [{ query: 'a', filters: {} }, 'filters: unknown field'],
  ])('rejects %j with 422', async (body, message) => {
    const res = await search(body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'invalid_request', message });
  });
});

describe('when the vector backend is down', () => {
  it('search answers 503 search_unavailable while other endpoints keep working', async () => {
    const down = await startTestServer({ ELASTICSEARCH_URL: 'http://127.0.0.1:9' });
    try {
      const res = await down.api().post('/v1/memories/search', { query: 'anything' });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 'search_unavailable', message: expect.any(String) });
      expect((await down.api().post('/v1/memories', { content: 'still accepted' })).status).toBe(200);
      expect((await down.api().get('/v1/memories')).status).toBe(200);
      expect((await down.api().get('/v1/facts')).status).toBe(200);
      expect((await down.api().get('/readyz')).status).toBe(503);
    } finally {
      await down.close();
    }
  });
});
