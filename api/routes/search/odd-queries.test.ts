import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

/** Queries users do send: very long, other scripts, one word, only stop words, names never seen, symbols. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const memories = Array.from({ length: 60 }, (_, i) => ({
    content: [`I live in Lisbon and walk my dog Rex every morning (${i}).`, `Met Priya for coffee near the office, talked about her new job (${i}).`, `東京に行きたい、桜の季節に (${i}).`][i % 3],
    user_id: 'odd',
  }));
  await t.api().post('/v1/batch', { memories });
  await t.settle();
});
afterAll(() => t?.close());

const odd: [string, string][] = [
  ['at the search limit', 'where does the user live and what about the dog '.repeat(400).slice(0, 16_000)],
  ['Japanese', '東京に行きたいのはいつですか'],
  ['Arabic', 'أين يعيش المستخدم'],
  ['one word', 'dog'],
  ['stop words only', 'the of and to in is it'],
  ['a name never seen', 'Zebulon Quaxworth'],
  ['emoji and punctuation', '🙂🙂 ?!?! ...'],
];

describe('odd queries are answered, never failed', () => {
  it.each(odd)('search: %s', async (_name, query) => {
    const started = performance.now();
    const res = await t.api().post('/v1/memories/search', { query, user_id: 'odd', limit: 10 });
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.results)).toBe(true);
    expect(res.body.results.length).toBeLessThanOrEqual(10);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it.each(odd.map(([name, query]) => [name, query.slice(0, 4_000)]))('context: %s', async (_name, query) => {
    const started = performance.now();
    const res = await t.api().get(`/v1/context?user_id=odd&query=${encodeURIComponent(query)}`);
    expect(res.status).toBe(200);
    expect(typeof res.body.context).toBe('string');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('an ordinary query still ranks its memory first in the same collection', async () => {
    const dog = (await t.api().post('/v1/memories/search', { query: 'dog Rex', user_id: 'odd', limit: 5 })).body.results;
    expect(dog[0].snippet).toContain('Rex');
  });
});
