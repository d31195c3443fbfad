import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/support/server.js';

/** Unknown, malformed or hostile input must get a clear 4xx in the error shape, never a 5xx. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

/** Nested `n` levels deep, built without recursion (the server must cope without it too). */
const deep = (n: number, asArray = false): unknown => {
  let v: unknown = 'x';
  for (let i = 0; i < n; i++) v = asArray ? [v] : { a: v };
  return v;
};
/** JSON text nested `n` levels deep, for depths JSON.stringify cannot reach. */
const deepText = (n: number, asArray: boolean, leaf = '1') => (asArray ? '['.repeat(n) + leaf + ']'.repeat(n) : '{"a":'.repeat(n) + leaf + '}'.repeat(n));
const values: unknown[] = [
  null,
  true,
  -1,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  '',
  ' ',
  '\u0000',
  '🦄'.repeat(5000),
  'x'.repeat(20_000),
  [],
  [1, 'a', null],
  {},
  { __proto__: { polluted: true } },
  deep(200),
  deep(1_000),
  deep(1_000, true),
  { a: 'x'.repeat(70_000) },
  Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
];

const endpoints: [string, string, (v: unknown) => unknown][] = [
  ['POST', '/v1/memories', (v) => ({ content: v })],
  ['POST', '/v1/memories', (v) => ({ content: 'ok', metadata: v })],
  ['POST', '/v1/memories', (v) => ({ content: 'ok', user_id: v, agent_id: v })],
  ['POST', '/v1/memories', (v) => ({ content: 'ok', timestamp: v })],
  ['POST', '/v1/memories/search', (v) => ({ query: v })],
  ['POST', '/v1/memories/search', (v) => ({ query: 'ok', limit: v })],
  ['POST', '/v1/memories/search', (v) => ({ query: 'ok', metadata: v })],
  ['POST', '/v1/batch', (v) => ({ memories: v })],
  ['POST', '/v1/batch', (v) => ({ memories: [v] })],
  ['POST', '/v1/facts', (v) => ({ subject: v, predicate: v, object: v })],
  ['POST', '/v1/facts', (v) => ({ subject: 'a', predicate: 'likes', object: 'b', valid_from: v, confidence: v })],
  ['PATCH', '/v1/memories/mem_unknown', (v) => ({ content: v })],
  ['PATCH', '/v1/memories/mem_unknown', (v) => ({ content: 'x', expected_updated_at: v })],
  ['POST', '/v1/facts/fct_unknown/forget', (v) => ({ at: v })],
  ['PATCH', '/v1/facts/fct_unknown', (v) => ({ object: v })],
];

describe('hostile input', () => {
  it('JSON bodies of every odd shape get 2xx or 4xx with {code, message}', async () => {
    for (const [method, path, body] of endpoints) {
      for (const value of values) {
        const res = await t.api().request(method, path, JSON.stringify(body(value)));
        expect(res.status, `${method} ${path} ${JSON.stringify(body(value)).slice(0, 80)}`).toBeLessThan(500);
        if (res.status >= 400) expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      }
    }
  });

  it('odd query strings and path segments get 4xx, never 5xx', async () => {
    const paths = [
      '/v1/context?query=%FF',
      '/v1/context?query=a&token_budget=99999999999999999999',
      '/v1/context?query[$ne]=1',
      '/v1/facts?as_of=99999-01-01',
      '/v1/facts?limit=1e3',
      '/v1/memories?offset=99999999999999999999999',
      '/v1/memories/%',
      '/v1/memories/%E0%A4%A',
      '/v1/memories/mem_' + 'a'.repeat(5000),
      '/v1/batch/' + '%00',
      '/v1/audit?since=2024-13-45',
      '/v1/users?agent_id=' + 'x'.repeat(300),
    ];
    for (const path of paths) {
      const res = await t.api().get(path);
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      expect(res.status, path).toBeLessThan(500);
    }
  });

  it('metadata nested thousands of levels deep is a 422 naming the field, in every body that takes metadata', async () => {
    const cases: [string, string, string][] = [
      ['/v1/memories', `{"content":"deep","metadata":{"m":${deepText(5_000, false)}}}`, 'metadata: is nested too deeply (a request body allows at most 64 levels)'],
      ['/v1/memories', `{"content":"deep","metadata":{"m":${deepText(40, true)}}}`, 'metadata: must be nested at most 10 levels deep'],
      ['/v1/memories', JSON.stringify({ content: 'big', metadata: { m: 'x'.repeat(70_000) } }), 'metadata: must serialise to at most 64000 characters'],
      ['/v1/memories/search', `{"query":"deep","metadata":{"m":${deepText(12, false)}}}`, 'metadata: must be nested at most 10 levels deep'],
      ['/v1/batch', `{"memories":[{"content":"ok"},{"content":"deep","metadata":{"m":${deepText(20, false)}}}]}`, 'memories[1].metadata: must be nested at most 10 levels deep'],
    ];
    for (const [path, body, message] of cases) {
      const res = await t.api().request('POST', path, body);
      expect(res.status, path).toBe(422);
      expect(res.body).toEqual({ code: 'invalid_request', message });
    }
    const fits = await t.api().post('/v1/memories', { content: 'nine levels fit', metadata: { m: deep(8) } });
    expect(fits.status).toBe(200);
    expect(fits.body.metadata).toEqual({ m: deep(8) });
  });

  it('a body nested 100,000 levels deep is a 422 naming where, wherever the nesting is', async () => {
    const cases: [string, string][] = [
      [deepText(100_000, true), 'body[0]'],
      [deepText(100_000, false), 'a'],
      [`{"content":"x","extra":${deepText(100_000, true)}}`, 'extra'],
      [`{"memories":[{"content":"x","metadata":${deepText(100_000, false)}}]}`, 'memories'],
    ];
    for (const [body, field] of cases) {
      for (const path of ['/v1/memories', '/v1/batch', '/v1/facts', '/v1/memories/search', '/v1/nowhere']) {
        const res = await t.api().request('POST', path, body);
        expect(res.status, path).toBe(422);
        expect(res.body).toEqual({ code: 'invalid_request', message: `${field}: is nested too deeply (a request body allows at most 64 levels)` });
      }
    }
  });

  it('random JSON bodies and path ids never reach a 5xx (fast-check, 240 requests)', async () => {
    const writes: [string, string][] = [
      ['POST', '/v1/memories'],
      ['POST', '/v1/memories/search'],
      ['POST', '/v1/batch'],
      ['POST', '/v1/facts'],
      ['PATCH', '/v1/memories/mem_x'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.jsonValue({ maxDepth: 6 }), async ([method, path], value) => {
        const res = await t.api().request(method, path, JSON.stringify(value));
        expect(res.status, `${method} ${path} ${JSON.stringify(value).slice(0, 80)}`).toBeLessThan(500);
        if (res.status >= 400) expect(Object.keys(res.body).sort()).toEqual(['code', 'message']);
      }),
      { numRuns: 120 },
    );
    const paths = [(id: string) => `/v1/memories/${id}`, (id: string) => `/v1/memories/${id}/history`, (id: string) => `/v1/batch/${id}`];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }), async (path, id) => {
        const res = await t.api().get(path(encodeURIComponent(id)));
        expect([404, 422], `${path(id).slice(0, 60)}`).toContain(res.status);
        if (res.status === 422) expect(res.body.message).toMatch(/^id: /);
      }),
      { numRuns: 120 },
    );
  });

  it('refuses __proto__ keys instead of letting them pollute objects', async () => {
    const res = await t.api().request('POST', '/v1/memories', '{"content":"proto","metadata":{"__proto__":{"admin":true},"a":1}}');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
    expect(({} as any).admin).toBeUndefined();
  });
});
