import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  const api = t.api();
  for (const content of [
    'I live in Berlin.',
    'I work at Siemens as an engineer.',
    'My sister Anna lives in Rome.',
    'I adopted a beagle puppy named Max last spring.',
    'I am allergic to peanuts.',
    'We are planning a trip to Japan in October to see the autumn leaves in Kyoto.',
    'My favourite food is ramen, especially tonkotsu.',
    'I moved to Munich.',
  ]) {
    await api.post('/v1/memories', { content, user_id: 'ctx' });
  }
  await api.post('/v1/memories', { content: 'A different user who lives in Paris.', user_id: 'other' });
  await t.settle();
});
afterAll(async () => t?.close());

const context = async (qs: string) => (await t.api().get(`/v1/context?${qs}`)).body;

describe('GET /v1/context', () => {
  it('puts live facts first, then relevant memories, with stable + volatile + hash', async () => {
    const body = await context('query=where+does+the+user+live&user_id=ctx');
    expect(body.context.startsWith('Known facts:')).toBe(true);
    expect(body.context).toContain('lives in Munich');
    expect(body.context).not.toContain('lives in Berlin'); // superseded
    expect(body.context).toBe(`${body.stable}\n\n${body.volatile}`);
    expect(body.stable_hash).toBe(createHash('sha256').update(body.stable).digest('hex'));
    expect(body.sources.length).toBeGreaterThan(0);
    expect(body.sources.every((s: string) => /^(fct|mem)_/.test(s))).toBe(true);
    expect(Object.keys(body).sort()).toEqual(['context', 'sources', 'stable', 'stable_hash', 'tokens', 'volatile']);
    expect(JSON.stringify(body)).not.toContain('Paris');
  });

  it('lists exactly the sources that built the block', async () => {
    const body = await context('query=dog&user_id=ctx&token_budget=8000');
    const facts = (await t.api().get('/v1/facts?user_id=ctx&limit=200')).body.facts;
    for (const id of body.sources) {
      if (id.startsWith('fct_')) {
        const f = facts.find((x: any) => x.id === id);
        expect(body.stable).toContain(`${f.subject} ${f.predicate.replace(/_/g, ' ')} ${f.object}`);
      } else {
        const m = (await t.api().get(`/v1/memories/${id}`)).body;
        expect(body.volatile).toContain(m.content);
      }
    }
    // with a big budget every live fact is in, so the facts block does not depend on the query
    const other = await context('query=food&user_id=ctx&token_budget=8000');
    expect(other.stable_hash).toBe(body.stable_hash);
  });

  it.each([50, 100, 200, 800, 2000, 8000])('keeps tokens within a budget of %i', async (budget) => {
    const body = await context(`query=what+do+I+know+about+the+user&user_id=ctx&token_budget=${budget}`);
    expect(Number.isInteger(body.tokens)).toBe(true);
    expect(body.tokens).toBeLessThanOrEqual(budget);
    expect(body.tokens).toBe(Math.ceil(body.context.length / 4));
    expect(body.context.length).toBeGreaterThan(0);
  });

  it('is empty for an empty scope', async () => {
    const body = await context('query=anything&user_id=nobody-here');
    expect(body).toMatchObject({ context: '', tokens: 0, sources: [], stable: '', volatile: '' });
  });

  it('drops forgotten memories and their facts', async () => {
    const m = (await t.api().post('/v1/memories', { content: 'I play the cello in an orchestra.', user_id: 'ctx-forget' })).body;
    await t.settle();
    expect((await context('query=cello&user_id=ctx-forget')).context).toContain('cello');
    await t.api().delete(`/v1/memories/${m.id}`);
    expect(await context('query=cello&user_id=ctx-forget')).toMatchObject({ context: '', sources: [] });
  });

  it.each([
    ['', 'query: is required'],
    ['query=', 'query: must not be empty'],
    ['query=a&query=b', 'query: must be a string'],
    ['query=a&token_budget=abc', 'token_budget: must be an integer'],
    ['query=a&token_budget=1.5', 'token_budget: must be an integer'],
    ['query=a&token_budget=0', 'token_budget: must be at least 1'],
  ])('rejects %j with 422', async (qs, message) => {
    const res = await t.api().get(`/v1/context?${qs}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 'invalid_request', message });
  });
});

describe('long memories and small budgets', () => {
  it('includes the beginning of a memory that does not fit whole, within the budget', async () => {
    const long = `My grandmother's recipe for plum cake: ${'butter, flour, sugar and plums, baked slowly. '.repeat(60)}`;
    await t.api().post('/v1/memories', { content: long, user_id: 'ctx-long' });
    await t.settle();
    const body = (await t.api().get('/v1/context?query=plum+cake+recipe&user_id=ctx-long&token_budget=100')).body;
    expect(body.tokens).toBeLessThanOrEqual(100);
    expect(body.volatile).toContain("My grandmother's recipe for plum cake");
    expect(body.volatile.endsWith('…')).toBe(true);
    expect(body.sources.some((s: string) => s.startsWith('mem_'))).toBe(true);
  });
});
