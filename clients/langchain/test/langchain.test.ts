import { Engram } from '@engram/client';
import type { Document } from '@langchain/core/documents';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeChatModel, FakeListChatModel } from '@langchain/core/utils/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';
import { EngramChatMessageHistory, EngramRetriever } from '../src/index.js';

/** @engram/langchain against a live embedded server, with LangChain's own fake chat models. */
let t: TestServer;
let engram: Engram;
beforeAll(async () => {
  t = await startTestServer();
  engram = new Engram({ baseUrl: t.url, apiKey: t.key });
});
afterAll(() => t?.close());

describe('EngramRetriever', () => {
  it('retrieves memories as Documents (whole text, score) and Engram context as one Document, inside a chain', async () => {
    const user = 'lc-retriever';
    const long = `I keep bees in my garden. ${'Every spring the hives need checking for mites and the frames need cleaning. '.repeat(5)}The honey is sold at the market.`;
    const ids = await Promise.all(
      [long, 'I live in Porto and work at Farfetch.', 'My brother plays the cello.'].map(async (content) => (await engram.memories.add({ content, user_id: user, metadata: { kind: 'note' } })).id),
    );
    await engram.waitUntilReady(ids);

    const docs = await new EngramRetriever({ engram, userId: user, k: 2 }).invoke('bees honey hives');
    expect(docs[0].pageContent).toBe(long);
    expect(docs[0].metadata).toMatchObject({ id: ids[0], kind: 'note', user_id: user });
    expect(docs[0].metadata.score).toBeGreaterThan(0);
    expect(docs.length).toBeLessThanOrEqual(2);

    const [block] = await new EngramRetriever({ engram, userId: user, mode: 'context' }).invoke('where does the user live');
    expect(block.pageContent).toContain('user lives in Porto');
    expect(block.metadata.sources).toContain(ids[1]);
    expect(await new EngramRetriever({ engram, userId: 'nobody', mode: 'context' }).invoke('anything')).toEqual([]);

    // In a chain: FakeChatModel answers with the prompt it was given.
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'Answer from this memory:\n{context}'],
      ['human', '{question}'],
    ]);
    const chain = RunnableSequence.from([
      {
        context: new EngramRetriever({ engram, userId: user, k: 1 }).pipe((found: Document[]) => found.map((d) => d.pageContent).join('\n')),
        question: new RunnablePassthrough(),
      },
      prompt,
      new FakeChatModel({}),
    ]);
    const echoed = await chain.invoke('Which city is home: Porto?');
    expect(echoed.content).toContain('I live in Porto and work at Farfetch.');
  });
});

describe('EngramChatMessageHistory', () => {
  it('keeps a RunnableWithMessageHistory conversation in Engram, in order, feeding the user’s facts, and clears it', async () => {
    const user = 'lc-history';
    const prompt = ChatPromptTemplate.fromMessages([['system', 'You are helpful.'], new MessagesPlaceholder('history'), ['human', '{input}']]);
    const model = new FakeListChatModel({ responses: ['Nice to meet you!', 'You live in Lyon.'] });
    const seen: number[] = [];
    const chain = new RunnableWithMessageHistory({
      runnable: prompt.pipe((value) => {
        seen.push(value.toChatMessages().length);
        return value;
      }).pipe(model),
      inputMessagesKey: 'input',
      historyMessagesKey: 'history',
      getMessageHistory: (sessionId: string) => new EngramChatMessageHistory({ engram, sessionId, userId: user }),
    });
    const config = { configurable: { sessionId: 'session-1' } };
    expect((await chain.invoke({ input: 'Hi, I live in Lyon.' }, config)).content).toBe('Nice to meet you!');
    expect((await chain.invoke({ input: 'Where do I live?' }, config)).content).toBe('You live in Lyon.');
    // The second call saw the system message, the first exchange and the new question.
    expect(seen).toEqual([2, 4]);

    const history = new EngramChatMessageHistory({ engram, sessionId: 'session-1', userId: user });
    const messages = await history.getMessages();
    expect(messages.map((m) => [m.getType(), m.content])).toEqual([
      ['human', 'Hi, I live in Lyon.'],
      ['ai', 'Nice to meet you!'],
      ['human', 'Where do I live?'],
      ['ai', 'You live in Lyon.'],
    ]);
    expect(messages[0]).toBeInstanceOf(HumanMessage);
    expect(messages[1]).toBeInstanceOf(AIMessage);

    // Each message is a memory of the session (run_id), so the conversation feeds the user's facts.
    const { memories } = await engram.memories.list({ user_id: user, run_id: 'session-1' });
    expect(memories).toHaveLength(4);
    await engram.waitUntilReady(memories.map((m) => m.id));
    const facts = await engram.facts.list({ user_id: user, predicate: 'lives_in' });
    expect(facts.facts.map((f) => f.object)).toEqual(['Lyon']);

    // Another session of the same user is another history.
    const other = new EngramChatMessageHistory({ engram, sessionId: 'session-2', userId: user });
    await other.addMessages([new HumanMessage('Second session.')]);
    expect(await other.getMessages()).toHaveLength(1);
    await history.clear();
    expect(await history.getMessages()).toEqual([]);
    expect(await other.getMessages()).toHaveLength(1);
  });
});
