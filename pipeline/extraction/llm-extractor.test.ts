import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIStub, type ChatRequest, type OpenAIStub } from '../../test/support/openai-stub.js';
import { createFactExtractor } from './index.js';
import { LlmFactExtractor, extractionJsonSchema } from './llm-extractor.js';
import { LlmOutputError, createOpenAIClient } from './openai-client.js';

const REF = new Date('2024-06-15T12:00:00Z');
const modelFact = (over: Record<string, unknown> = {}) => ({
  subject: 'I',
  subjectType: 'user',
  predicate: 'lives_in',
  predicateRaw: 'moved to',
  family: 'places',
  object: 'Munich',
  objectIsLiteral: false,
  negated: false,
  tense: 'current',
  validFrom: '2023-06-15',
  validTo: null,
  confidence: 0.9,
  ...over,
});

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function extractorReplying(reply: (req: ChatRequest) => string) {
  stub = await startOpenAIStub({ chat: reply });
  return createFactExtractor({ EXTRACTOR: 'openai', OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'test', EXTRACTION_MODEL: 'extract-model' });
}

describe('LLM fact extractor', () => {
  it('sends a schema-constrained request and maps valid output to facts', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [modelFact()] }));
    expect(extractor).toBeInstanceOf(LlmFactExtractor);
    const facts = await extractor.extractFacts({ content: 'I moved to Munich last year.', referenceTime: REF });
    expect(facts).toEqual([
      {
        subject: 'user',
        subjectType: 'user',
        predicate: 'lives_in',
        predicateRaw: 'moved to',
        family: 'places',
        object: 'Munich',
        objectIsLiteral: false,
        negated: false,
        tense: 'current',
        validFrom: new Date('2023-06-15T00:00:00Z'),
        validTo: null,
        confidence: 0.9,
      },
    ]);
    const body = stub!.requests[0].body;
    expect(stub!.requests[0].path).toBe('/v1/chat/completions');
    expect(body.model).toBe('extract-model');
    expect(body.temperature).toBe(0);
    expect(body.response_format.type).toBe('json_schema');
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.properties.facts.items.properties.predicate.enum).toContain('works_at');
    expect(body.messages[1].content).toContain('2024-06-15T12:00:00.000Z');
    expect(body.messages[1].content).toContain('I moved to Munich last year.');
  });

  it('takes the family from the taxonomy, not from the model', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [modelFact({ predicate: 'works_at', family: 'places', object: 'Siemens' })] }));
    const [fact] = await extractor.extractFacts({ content: 'I work at Siemens', referenceTime: REF });
    expect(fact.family).toBe('work');
  });

  it('maps an off-taxonomy predicate through its surface form, else keeps it as snake_case in family other', async () => {
    const extractor = await extractorReplying(() =>
      JSON.stringify({
        facts: [modelFact({ predicate: 'resides_in', predicateRaw: 'relocated to' }), modelFact({ predicate: 'collects', predicateRaw: 'collects', family: 'preferences', object: 'stamps' })],
      }),
    );
    const facts = await extractor.extractFacts({ content: 'I relocated to Munich and collect stamps.', referenceTime: REF });
    expect(facts.map((f) => [f.predicate, f.family])).toEqual([
      ['lives_in', 'places'],
      ['collects', 'other'],
    ]);
  });

  it('keeps named third persons as subjects', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [modelFact({ subject: 'Anna', subjectType: 'person', predicateRaw: 'lives in', validFrom: null })] }));
    const [fact] = await extractor.extractFacts({ content: 'Anna lives in Munich.', referenceTime: REF });
    expect(fact).toMatchObject({ subject: 'Anna', subjectType: 'person', validFrom: null });
  });

  it('rejects invalid JSON with a clear error', async () => {
    const extractor = await extractorReplying(() => 'Sure! Here are the facts: {facts: [');
    await expect(extractor.extractFacts({ content: 'I live in Berlin', referenceTime: REF })).rejects.toThrow(LlmOutputError);
    await expect(extractor.extractFacts({ content: 'I live in Berlin', referenceTime: REF })).rejects.toThrow(/invalid JSON/);
  });

  it('rejects output that breaks the schema', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [modelFact({ tense: 'someday', confidence: 3 })] }));
    await expect(extractor.extractFacts({ content: 'I live in Berlin', referenceTime: REF })).rejects.toThrow(/does not match the fact schema: facts\.0\.tense/);
  });

  it('rejects unparseable dates', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [modelFact({ validFrom: 'last year' })] }));
    await expect(extractor.extractFacts({ content: 'I moved last year', referenceTime: REF })).rejects.toThrow(/invalid validFrom/);
  });

  it('surfaces HTTP failures so the pipeline can retry, without SDK retries', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [] }));
    stub!.failNext(1, 500);
    await expect(extractor.extractFacts({ content: 'I live in Berlin', referenceTime: REF })).rejects.toThrow();
    expect(stub!.requests).toHaveLength(1);
    await expect(extractor.extractFacts({ content: 'I live in Berlin', referenceTime: REF })).resolves.toEqual([]);
  });

  it('does not call the model for empty content', async () => {
    const extractor = await extractorReplying(() => JSON.stringify({ facts: [] }));
    await expect(extractor.extractFacts({ content: '  ', referenceTime: REF })).resolves.toEqual([]);
    expect(stub!.requests).toHaveLength(0);
  });

  it('needs a key or a base URL', () => {
    expect(() => createOpenAIClient({})).toThrow(/OPENAI_API_KEY/);
    expect(() => createFactExtractor({ EXTRACTOR: 'openai', EXTRACTION_MODEL: 'm' })).toThrow(/OPENAI_API_KEY/);
  });

  it('publishes a strict JSON schema that requires every property', () => {
    const item = (extractionJsonSchema() as any).properties.facts.items;
    expect(item.additionalProperties).toBe(false);
    expect([...item.required].sort()).toEqual(Object.keys(item.properties).sort());
  });
});
