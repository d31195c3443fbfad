import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIStub, type ChatRequest, type OpenAIStub } from '../support/openai-stub.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The optional LLM extractor and stage-2 judge, driven end to end through the
 * server against a local OpenAI-compatible stub (the only test double).
 */
let stub: OpenAIStub;
let t: TestServer;

function answer(req: ChatRequest): string {
  const text = req.messages.map((m) => m.content).join('\n');
  if (req.model === 'judge-model') {
    // supersede every candidate the prompt lists
    const candidates = [...new Set(text.match(/fct_[A-Za-z0-9]+/g) ?? [])];
    return JSON.stringify({ decision: 'insert', factId: null, invalidate: candidates, closedAt: null, reason: 'newer residence' });
  }
  const city = /I live in (\w+)/.exec(req.messages.at(-1)!.content)?.[1];
  const facts = city
    ? [{ subject: 'I', subjectType: 'user', predicate: 'lives_in', predicateRaw: 'live in', family: 'places', object: city, objectIsLiteral: false, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.8 }]
    : [];
  return JSON.stringify({ facts });
}

beforeAll(async () => {
  stub = await startOpenAIStub({ chat: answer });
  t = await startTestServer({
    EXTRACTOR: 'openai',
    JUDGE: 'openai',
    OPENAI_BASE_URL: stub.url,
    OPENAI_API_KEY: 'test',
    EXTRACTION_MODEL: 'extract-model',
    JUDGE_MODEL: 'judge-model',
    JOB_ATTEMPTS: '3',
  });
});
afterAll(async () => {
  await t?.close();
  await stub?.close();
});

describe('OpenAI-compatible extractor and judge', () => {
  it('extracts through the model and lets the judge supersede', async () => {
    await t.api().post('/v1/memories', { content: 'I live in Berlin.', user_id: 'llm' });
    await t.settle();
    await t.api().post('/v1/memories', { content: 'I live in Munich.', user_id: 'llm' });
    await t.settle();
    const live = (await t.api().get('/v1/facts?user_id=llm')).body.facts;
    expect(live.map((f: any) => [f.predicate, f.object, f.confidence])).toEqual([['lives_in', 'Munich', 0.8]]);
    expect((await t.api().get('/v1/facts?user_id=llm&include_invalidated=true')).body.total).toBe(2);
    const models = stub.requests.filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.body.model);
    expect(models).toContain('extract-model');
    expect(models).toContain('judge-model');
  });

  it('a provider failure is retried by the pipeline and the write still ends ready', async () => {
    stub.failNext(1, 503);
    const m = (await t.api().post('/v1/memories', { content: 'I live in Vienna.', user_id: 'llm-retry' })).body;
    await t.settle();
    expect((await t.api().get(`/v1/memories/${m.id}`)).body.status).toBe('ready');
    expect((await t.api().get('/v1/facts?user_id=llm-retry')).body.facts.map((f: any) => f.object)).toEqual(['Vienna']);
  });
});
