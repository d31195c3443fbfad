import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type ApiClient, type TestServer } from '../support/server.js';

/**
 * Result-set parity for filtered scopes: the same memories written to both modes must give the same set of hits for
 * every scope filter (user, agent, run, metadata) at every limit, including limits above the scope's size, where
 * every memory of the scope must come back.
 */
const TOPICS = ['hiking in the Alps', 'sourdough starter', 'learning Portuguese', 'a broken bicycle chain', 'tax return deadline',
  'the dentist appointment', 'a new espresso machine', 'marathon training plan', 'moving flat in Leipzig', 'the cat is sick',
  'jazz concert tickets', 'a job interview at a bank', 'birthday gift for Anna', 'repainting the kitchen', 'lost passport',
  'a chess tournament', 'planting tomatoes', 'the car needs new tyres', 'a podcast about history', 'weekend in Lisbon'];

interface Written { id: string; user: string; agent: string; run: string; team: string }

let embedded: TestServer;
let production: TestServer;

async function write(api: ApiClient): Promise<Written[]> {
  const items = TOPICS.flatMap((topic, i) => [
    { content: `I have been thinking about ${topic} all week.`, user_id: 'u_parity', agent_id: i % 2 ? 'planner' : 'helper', run_id: `run_${i % 3}`, metadata: { team: i % 4 ? 'blue' : 'red' } },
    { content: `My neighbour told me about ${topic} yesterday.`, user_id: 'u_other', agent_id: 'helper', run_id: 'run_0', metadata: { team: 'blue' } },
  ]).concat(TOPICS.map((_, i) => ({ content: `Fact number ${i + 1} about the topic.`, user_id: 'u_same', agent_id: 'helper', run_id: 'run_0', metadata: { team: 'blue' } })));
  const batch = await api.post('/v1/batch', { memories: items });
  expect(batch.status).toBe(202);
  for (const deadline = Date.now() + 240_000; ; ) {
    const body = (await api.get(`/v1/batch/${batch.body.id}`)).body;
    if (body.status === 'completed') break;
    if (Date.now() > deadline) throw new Error('batch did not complete');
    await new Promise((r) => setTimeout(r, 100));
  }
  // Single writes, all in flight at once, half of them with the same text: the per-write flows of the production mode.
  const singles = await Promise.all(TOPICS.map((topic, i) => api.post('/v1/memories', { content: i % 2 ? 'I like green tea.' : `Note ${i}: ${topic}.`, user_id: 'u_single' })));
  for (const res of singles) expect(res.status).toBe(200);
  for (const deadline = Date.now() + 240_000; ; ) {
    const states = await Promise.all(singles.map(async (res) => (await api.get(`/v1/memories/${res.body.id}`)).body.status));
    if (states.every((s) => s === 'ready')) break;
    if (Date.now() > deadline) throw new Error(`single writes did not settle: ${states.join(',')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const listed = (await api.get('/v1/memories?limit=200')).body.memories as any[];
  return listed.map((m) => ({ id: m.id, user: m.user_id, agent: m.agent_id, run: m.run_id, team: m.metadata.team }));
}

const SCOPES: { name: string; filter: Record<string, unknown>; matches: (w: Written) => boolean }[] = [
  { name: 'user', filter: { user_id: 'u_parity' }, matches: (w) => w.user === 'u_parity' },
  { name: 'user and agent', filter: { user_id: 'u_parity', agent_id: 'planner' }, matches: (w) => w.user === 'u_parity' && w.agent === 'planner' },
  { name: 'user and run', filter: { user_id: 'u_parity', run_id: 'run_1' }, matches: (w) => w.user === 'u_parity' && w.run === 'run_1' },
  { name: 'user and metadata', filter: { user_id: 'u_parity', metadata: { team: 'blue' } }, matches: (w) => w.user === 'u_parity' && w.team === 'blue' },
  { name: 'near-identical memories', filter: { user_id: 'u_same' }, matches: (w) => w.user === 'u_same' },
  { name: 'single writes', filter: { user_id: 'u_single' }, matches: (w) => w.user === 'u_single' },
  { name: 'workspace', filter: {}, matches: () => true },
];
const LIMITS = [1, 5, 15, 19, 20, 21, 40, 50];

async function resultSets(api: ApiClient, written: Written[], mode: string) {
  const out: Record<string, string[]> = {};
  for (const scope of SCOPES) {
    for (const limit of LIMITS) {
      const res = await api.post('/v1/memories/search', { query: 'what have I been thinking about lately', limit, ...scope.filter });
      expect(res.status).toBe(200);
      const ids = (res.body.results as any[]).map((r) => r.id);
      const inScope = written.filter(scope.matches).length;
      expect(ids.length, `${mode}: ${scope.name} at limit ${limit} (${JSON.stringify(written.filter(scope.matches).map((w) => w.id))} vs ${JSON.stringify(ids)})`).toBe(Math.min(limit, inScope));
      const byId = new Map(written.map((w) => [w.id, w]));
      for (const id of ids) expect(scope.matches(byId.get(id)!), `${scope.name}: ${id} is out of scope`).toBe(true);
      out[`${scope.name}@${limit}`] = ids;
    }
  }
  return out;
}

beforeAll(async () => {
  [embedded, production] = await Promise.all([startTestServer({}, { mode: 'embedded' }), startTestServer({}, { mode: 'production' })]);
});

afterAll(async () => {
  await Promise.all([embedded?.close(), production?.close()]);
});

describe('filtered search returns the same result sets in both modes', () => {
  it('every scope at every limit: min(limit, scope size) hits, all in scope, and the same memories in both modes', async () => {
    const [e, p] = await Promise.all([write(embedded.api()), write(production.api())]);
    const left = await resultSets(embedded.api(), e, 'embedded');
    const right = await resultSets(production.api(), p, 'production');
    // Ids differ between the deployments; contents identify a memory across them.
    const content = async (api: ApiClient, ids: string[]) => Promise.all(ids.map(async (id) => (await api.get(`/v1/memories/${id}`)).body.content as string));
    for (const key of Object.keys(left)) {
      const [a, b] = await Promise.all([content(embedded.api(), left[key]), content(production.api(), right[key])]);
      expect(new Set(b), key).toEqual(new Set(a));
    }
  });
});
