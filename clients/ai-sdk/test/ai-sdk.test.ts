import { Engram } from '@engram/client';
import { generateText, simulateReadableStream, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';
import { engramMiddleware, engramTools } from '../src/index.js';

/** @engram/ai-sdk against a live embedded server, with the AI SDK's own mock language model. */
let t: TestServer;
let engram: Engram;
beforeAll(async () => {
  t = await startTestServer();
  engram = new Engram({ baseUrl: t.url, apiKey: t.key });
});
afterAll(() => t?.close());

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const stop = { unified: 'stop' as const, raw: 'stop' };
const answer = (text: string) => ({ content: [{ type: 'text' as const, text }], finishReason: stop, usage, warnings: [] });
const toolCall = (toolName: string, input: unknown, id: string) => ({
  content: [{ type: 'tool-call' as const, toolCallId: id, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls' as const, raw: 'tool_calls' },
  usage,
  warnings: [],
});
/** The system messages a mock model call received. */
const systemText = (call: { prompt: { role: string; content: unknown }[] }) =>
  call.prompt.filter((m) => m.role === 'system').map((m) => m.content as string).join('\n');

describe('engramMiddleware', () => {
  it('adds Engram context to a generate call and stores the exchange afterwards', async () => {
    const user = 'ai-generate';
    await engram.waitUntilReady((await engram.memories.add({ content: 'I live in Berlin and work at Siemens.', user_id: user })).id);
    const mock = new MockLanguageModelV4({ doGenerate: answer('You live in Berlin.') });
    const model = wrapLanguageModel({ model: mock, middleware: engramMiddleware({ engram, userId: user }) });

    const result = await generateText({ model, system: 'You are helpful.', prompt: 'Where do I live?' });
    expect(result.text).toBe('You live in Berlin.');
    const call = mock.doGenerateCalls[0];
    expect(call.prompt[0]).toEqual({ role: 'system', content: 'You are helpful.' });
    expect(systemText(call)).toContain('user lives in Berlin');
    expect(call.prompt.at(-1)?.role).toBe('user');

    const { memories } = await engram.memories.list({ user_id: user });
    expect(memories[0].content).toBe('user: Where do I live?\nassistant: You live in Berlin.');
    expect(memories[0].metadata).toEqual({ source: 'ai-sdk' });
  });

  it('stores a streamed answer once the stream ends, and leaves a prompt alone when nothing is remembered', async () => {
    const user = 'ai-stream';
    const mock = new MockLanguageModelV4({
      doStream: {
        stream: simulateReadableStream({
          chunks: [
            { type: 'text-start' as const, id: '1' },
            { type: 'text-delta' as const, id: '1', delta: 'Noted: you ' },
            { type: 'text-delta' as const, id: '1', delta: 'love sailing.' },
            { type: 'text-end' as const, id: '1' },
            { type: 'finish' as const, finishReason: stop, usage },
          ],
        }),
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: engramMiddleware({ engram, userId: user }) });
    const result = streamText({ model, prompt: 'I love sailing.' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Noted: you love sailing.');
    expect(systemText(mock.doStreamCalls[0])).toBe('');
    const { memories } = await engram.memories.list({ user_id: user });
    expect(memories.map((m) => m.content)).toEqual(['user: I love sailing.\nassistant: Noted: you love sailing.']);
  });

  it('passes a failure of Engram to onError and lets the model call go on', async () => {
    const errors: unknown[] = [];
    const broken = new Engram({ baseUrl: t.url, apiKey: 'eng_revoked', maxRetries: 0 });
    const mock = new MockLanguageModelV4({ doGenerate: answer('Hello.') });
    const model = wrapLanguageModel({ model: mock, middleware: engramMiddleware({ engram: broken, userId: 'x', onError: (e) => errors.push(e) }) });
    expect((await generateText({ model, prompt: 'Hi' })).text).toBe('Hello.');
    expect(errors.map((e) => (e as { code: string }).code)).toEqual(['invalid_key', 'invalid_key']);
  });
});

describe('engramTools', () => {
  it('lets a model remember, list facts and recall through tool calls', async () => {
    const user = 'ai-tools';
    const mock = new MockLanguageModelV4({
      doGenerate: [
        toolCall('remember', { content: 'I moved to Lisbon and I have a dog named Rex.' }, 'c1'),
        toolCall('facts', { predicate_family: 'places' }, 'c2'),
        toolCall('recall', { query: 'where does the user live' }, 'c3'),
        answer('You live in Lisbon.'),
      ],
    });
    const result = await generateText({
      model: mock,
      tools: engramTools(engram, { userId: user, waitUntilReady: true }),
      prompt: 'Remember where I live, then tell me.',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('You live in Lisbon.');
    const outputs = Object.fromEntries(result.steps.flatMap((s) => s.toolResults).map((r) => [r.toolName, r.output as Record<string, unknown>]));
    expect(outputs.remember).toMatchObject({ status: 'ready' });
    expect(outputs.remember.facts).toEqual(expect.arrayContaining(['user lives_in Lisbon']));
    expect(outputs.facts).toMatchObject({ total: 1, facts: [{ subject: 'user', predicate: 'lives_in', object: 'Lisbon', invalid_at: null }] });
    expect(outputs.recall.context).toContain('Lisbon');
    // The model saw each tool's result in its next call.
    expect(JSON.stringify(mock.doGenerateCalls[3].prompt)).toContain('Lisbon');
  });

  it('work with the middleware in one multi-step call, which stores the exchange once', async () => {
    const user = 'ai-both';
    const mock = new MockLanguageModelV4({
      doGenerate: [toolCall('remember', { content: 'I work at Siemens.' }, 'c1'), answer('Noted, you work at Siemens.')],
    });
    const model = wrapLanguageModel({ model: mock, middleware: engramMiddleware({ engram, userId: user }) });
    const result = await generateText({ model, tools: engramTools(engram, { userId: user }), prompt: 'Please remember: I work at Siemens.', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('Noted, you work at Siemens.');
    const { memories } = await engram.memories.list({ user_id: user });
    expect(memories.map((m) => m.content)).toEqual(['user: Please remember: I work at Siemens.\nassistant: Noted, you work at Siemens.', 'I work at Siemens.']);
  });
});
