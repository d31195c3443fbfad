// Run in a temporary project that installed the packed client and integrations: one middleware call, one retrieval.
import { Engram } from '@engram/client';
import { engramMiddleware } from '@engram/ai-sdk';
import { EngramChatMessageHistory, EngramRetriever } from '@engram/langchain';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';

const engram = new Engram({ baseUrl: process.env.ENGRAM_URL, apiKey: process.env.ENGRAM_API_KEY });
const user = 'integrations-user';
await engram.waitUntilReady((await engram.memories.add({ content: 'I live in Vienna.', user_id: user })).id);

const mock = new MockLanguageModelV4({
  doGenerate: {
    content: [{ type: 'text', text: 'Vienna.' }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } },
    warnings: [],
  },
});
const model = wrapLanguageModel({ model: mock, middleware: engramMiddleware({ engram, userId: user }) });
await generateText({ model, prompt: 'Where do I live?' });
if (!JSON.stringify(mock.doGenerateCalls[0].prompt).includes('user lives in Vienna')) throw new Error('the middleware added no context');

const docs = await new EngramRetriever({ engram, userId: user }).invoke('Vienna');
if (docs[0]?.pageContent !== 'I live in Vienna.') throw new Error(`the retriever found ${JSON.stringify(docs)}`);
const history = new EngramChatMessageHistory({ engram, sessionId: 's1', userId: user });
await history.addUserMessage('Hello.');
if ((await history.getMessages()).length !== 1) throw new Error('the history lost a message');
console.log('INTEGRATIONS OK');
