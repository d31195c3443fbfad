import type { Engram, PredicateFamily } from '@engram/client';
import { tool, type LanguageModelMiddleware } from 'ai';
import { z } from 'zod';

/** Whose memory: the Engram scope every call of these tools and this middleware uses. */
export interface EngramScope {
  /** The end user; recommended (without it, reads span every user of the key's namespace). */
  userId?: string;
  agentId?: string;
  runId?: string;
}

export interface EngramToolsOptions extends EngramScope {
  /** `remember` waits until extraction has finished, so facts are queryable when it returns (default false). */
  waitUntilReady?: boolean;
  /** The `recall` context size (default 800 tokens). */
  tokenBudget?: number;
}

const FAMILIES = ['preferences', 'people', 'places', 'work', 'ownership', 'health', 'financial', 'events', 'other'] as const satisfies readonly PredicateFamily[];

/**
 * Memory tools for `generateText`/`streamText`/agents: `remember` stores a memory, `recall` returns
 * prompt-ready context for a query, `facts` lists typed facts (as of a date, or with their history).
 *
 * ```ts
 * const result = await generateText({ model, tools: engramTools(engram, { userId: 'alice' }), prompt, stopWhen: stepCountIs(5) });
 * ```
 */
export function engramTools(engram: Engram, options: EngramToolsOptions = {}) {
  const scope = { user_id: options.userId, agent_id: options.agentId };
  return {
    remember: tool({
      description: 'Store something worth remembering about the user or the conversation in long-term memory.',
      inputSchema: z.object({ content: z.string().min(1).describe('The text to remember, in plain words') }),
      execute: async ({ content }) => {
        let memory = await engram.memories.add({ content, ...scope, run_id: options.runId });
        if (options.waitUntilReady) memory = await engram.waitUntilReady(memory.id);
        return {
          id: memory.id,
          status: memory.status,
          facts: memory.facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`),
        };
      },
    }),
    recall: tool({
      description: 'Recall what long-term memory knows that is relevant to a query: current facts first, then related memories.',
      inputSchema: z.object({ query: z.string().min(1).describe('What to recall, e.g. "where does the user live"') }),
      execute: async ({ query }) => {
        const { context, sources } = await engram.context({ query, ...scope, token_budget: options.tokenBudget });
        return { context: context || 'Nothing relevant is remembered.', sources };
      },
    }),
    facts: tool({
      description: 'List typed facts (subject, predicate, object) from long-term memory: what is true now, what was true at a date, or the full history.',
      inputSchema: z.object({
        entity: z.string().optional().describe('Only facts about this entity (as subject or object)'),
        predicate_family: z.enum(FAMILIES).optional().describe('Only facts of this family'),
        as_of: z.string().optional().describe('ISO 8601 date: what was true then'),
        include_history: z.boolean().optional().describe('Also facts that are no longer true'),
      }),
      execute: async ({ entity, predicate_family, as_of, include_history }) => {
        const { facts, total } = await engram.facts.list({ ...scope, entity, predicate_family, as_of, include_invalidated: include_history });
        return {
          total,
          facts: facts.map((f) => ({ subject: f.subject, predicate: f.predicate, object: f.object, valid_from: f.valid_from, invalid_at: f.invalid_at })),
        };
      },
    }),
  };
}

export interface EngramMiddlewareOptions extends EngramScope {
  engram: Engram;
  /** The context size (default 800 tokens). */
  tokenBudget?: number;
  /** Store each exchange (the last user message and the text answer) as a memory afterwards (default true). */
  store?: boolean;
  /** How the context is introduced to the model. */
  preamble?: string;
  /** Called when reading context or storing the exchange fails; the model call goes on without it (default: rethrow). */
  onError?: (error: unknown) => void;
}

type CallOptions = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type Prompt = CallOptions['prompt'];

/** The text of the last user message of a prompt. */
function lastUserText(prompt: Prompt): string {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i];
    if (message.role !== 'user') continue;
    return message.content
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('')
      .trim();
  }
  return '';
}

/**
 * A language model middleware: before each call it asks Engram for context on the last user message and adds it
 * as a system message; after the call (generate or stream) it stores the exchange as a memory.
 *
 * ```ts
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware: engramMiddleware({ engram, userId: 'alice' }) });
 * ```
 */
export function engramMiddleware(options: EngramMiddlewareOptions): LanguageModelMiddleware {
  const { engram, store = true } = options;
  const preamble = options.preamble ?? 'What you remember about the user (from long-term memory; use it when relevant):';
  const fail = (error: unknown) => {
    if (!options.onError) throw error;
    options.onError(error);
  };
  const remember = async (params: CallOptions, answer: string) => {
    // Only a step that answers in text closes an exchange: the tool-call steps of a multi-step call store nothing.
    if (!store || !answer.trim()) return;
    const question = lastUserText(params.prompt);
    try {
      await engram.memories.add({
        content: [
          ...(question ? [{ role: 'user', content: question }] : []),
          { role: 'assistant', content: answer },
        ],
        user_id: options.userId,
        agent_id: options.agentId,
        run_id: options.runId,
        metadata: { source: 'ai-sdk' },
      });
    } catch (error) {
      fail(error);
    }
  };

  return {
    specificationVersion: 'v4',
    transformParams: async ({ params }) => {
      const query = lastUserText(params.prompt);
      if (!query) return params;
      let context = '';
      try {
        ({ context } = await engram.context({ query, user_id: options.userId, agent_id: options.agentId, token_budget: options.tokenBudget }));
      } catch (error) {
        fail(error);
      }
      if (!context) return params;
      // After the caller's own system messages, before the conversation.
      const firstOther = params.prompt.findIndex((m) => m.role !== 'system');
      const at = firstOther === -1 ? params.prompt.length : firstOther;
      const prompt: Prompt = [...params.prompt.slice(0, at), { role: 'system', content: `${preamble}\n${context}` }, ...params.prompt.slice(at)];
      return { ...params, prompt };
    },
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      const answer = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      await remember(params, answer);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const { stream, ...rest } = await doStream();
      let answer = '';
      const watched = stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            if (part.type === 'text-delta') answer += part.delta;
            controller.enqueue(part);
          },
          flush: () => remember(params, answer),
        }),
      );
      return { stream: watched, ...rest };
    },
  };
}
