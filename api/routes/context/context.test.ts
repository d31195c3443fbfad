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

describe('GET /v1/context: the turns around a hit', () => {
  it('ranks the reply to the turn a question matches higher than the same words said elsewhere', async () => {
    const api = t.api();
    const question = 'Sam: What hobby did you take up this spring?';
    const reply = 'Noor: The one my grandmother taught me, every Thursday evening.';
    // Lines closer to the question's words than the reply is, so only its place in the conversation can lift it.
    const others = [
      'Sam: Spring cleaning took the whole weekend.',
      'Noor: A new café opened by the station this spring.',
      'Sam: I started a new job in March.',
      'Noor: Spring weather here changes every hour.',
      'Sam: My brother took up golf last year.',
      'Noor: I picked up a cold this week.',
      'Sam: We took the kids to the spring fair.',
      'Noor: New season, new running shoes.',
      'Sam: The garden centre had a spring sale.',
      'Noor: I took the early train today.',
      'Sam: Did you watch the match last night?',
      'Noor: The bakery on the corner closed down.',
      'Sam: The hobby shop downtown has a sale on paints.',
      'Noor: I took my bike in for a repair.',
      'Sam: My sister took up yoga in the spring.',
      'Noor: The spring concert was sold out.',
      'Sam: I took a day off on Monday.',
      'Noor: Spring is my favourite season for walks.',
      'Sam: Our office took on three new people.',
      'Noor: My hobbies used to be chess and crosswords.',
      'Sam: The park looks lovely this spring.',
      'Noor: I took the dog to the vet.',
    ];
    const write = async (userId: string, lines: string[]) => {
      const batch = (await api.post('/v1/batch', { memories: lines.map((content) => ({ content, user_id: userId })) })).body;
      await t.settle();
      await expect.poll(async () => (await api.get(`/v1/batch/${batch.id}`)).body.status).toBe('completed');
      const ids = new Map<string, string>();
      for (const m of (await api.get(`/v1/memories?user_id=${userId}&limit=100`)).body.memories) ids.set(m.content, m.id);
      return ids;
    };
    const adjacent = await write('turns-adjacent', [...others.slice(0, 11), question, reply, ...others.slice(11)]);
    const apart = await write('turns-apart', [reply, ...others.slice(0, 11), question, ...others.slice(11)]);
    const placeOfReply = async (userId: string, ids: Map<string, string>) => {
      const body = await context(`query=${encodeURIComponent('Which hobby was taken up this spring?')}&user_id=${userId}&token_budget=2000`);
      const memories = (body.sources as string[]).filter((id) => id.startsWith('mem_'));
      expect(memories.slice(0, 3)).toContain(ids.get(question));
      return memories.indexOf(ids.get(reply)!);
    };
    const apartPlace = await placeOfReply('turns-apart', apart);
    const adjacentPlace = await placeOfReply('turns-adjacent', adjacent);
    // Both scopes hold the same lines, so only the reply's place in the conversation can move it.
    expect(apartPlace).toBeGreaterThan(5);
    expect(adjacentPlace).toBeLessThan(apartPlace);
  });
});
