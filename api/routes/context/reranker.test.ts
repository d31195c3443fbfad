import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

/** RERANKER=model (opt-in): the same memories reach the block as without it, in the model's order. */
const turns = [
  'Maria: The weather has been awful all week, rain every single day.',
  'Tom: I finally adopted a dog from the shelter, a three-year-old beagle called Biscuit!',
  'Maria: My sister is visiting from Lisbon next month, I need to clean the guest room.',
  'Tom: Work is busy, we are shipping the new billing system on Friday.',
  'Maria: I signed up for a pottery class on Thursday evenings.',
];

let plain: TestServer;
let reranked: TestServer;

beforeAll(async () => {
  [plain, reranked] = await Promise.all([startTestServer({ RERANKER: 'off' }), startTestServer({ RERANKER: 'model' })]);
  for (const t of [plain, reranked]) {
    const res = await t.api().post('/v1/batch', { memories: turns.map((content, i) => ({ content, user_id: 'u1', timestamp: `2023-05-0${i + 1}T10:00:00Z` })) });
    expect(res.status).toBe(202);
    await t.settle();
  }
});

afterAll(async () => {
  await Promise.all([plain?.close(), reranked?.close()]);
});

const memorySources = async (t: TestServer, query: string) => {
  const res = await t.api().get(`/v1/context?query=${encodeURIComponent(query)}&user_id=u1&token_budget=800`);
  expect(res.status).toBe(200);
  const contents = new Map((await t.api().get('/v1/memories?user_id=u1&limit=50')).body.memories.map((m: any) => [m.id, m.content]));
  return (res.body.sources as string[]).filter((s) => s.startsWith('mem_')).map((id) => contents.get(id) as string);
};

describe('context with the reranker', () => {
  it('packs the same memories as the fused order, with the answer first', async () => {
    const query = 'What pet does Tom have?';
    const [before, after] = await Promise.all([memorySources(plain, query), memorySources(reranked, query)]);
    expect(new Set(after)).toEqual(new Set(before));
    expect(after[0]).toBe(turns[1]);
  });
});
