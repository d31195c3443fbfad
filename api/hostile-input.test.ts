import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/support/server.js';

/** Unknown, malformed or hostile input must get a clear 4xx in the error shape, never a 5xx. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => t?.close());

const deep = (n: number): unknown => (n === 0 ? 'x' : { a: deep(n - 1) });
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

  it('refuses __proto__ keys instead of letting them pollute objects', async () => {
    const res = await t.api().request('POST', '/v1/memories', '{"content":"proto","metadata":{"__proto__":{"admin":true},"a":1}}');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('invalid_request');
    expect(({} as any).admin).toBeUndefined();
  });
});
