import type { Engram, Memory } from '@engram/client';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import { Document } from '@langchain/core/documents';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';

export interface EngramRetrieverInput extends BaseRetrieverInput {
  engram: Engram;
  userId?: string;
  agentId?: string;
  /**
   * `search` (default): one Document per memory, by semantic similarity, `score` in the metadata.
   * `context`: one Document holding Engram's prompt-ready block (live facts first, then memories), `sources` in the metadata.
   */
  mode?: 'search' | 'context';
  /** Documents in `search` mode (default 5, at most 50). */
  k?: number;
  /** The block's size in `context` mode (default 800 tokens). */
  tokenBudget?: number;
  /** In `search` mode, read a memory's whole text when its snippet (at most 280 characters, cut with `…`) is cut short (default true). */
  fullContent?: boolean;
}

/**
 * A LangChain retriever over an Engram memory store.
 *
 * ```ts
 * const retriever = new EngramRetriever({ engram, userId: 'alice', k: 5 });
 * const docs = await retriever.invoke('where does alice live');
 * ```
 */
export class EngramRetriever extends BaseRetriever {
  static override lc_name() {
    return 'EngramRetriever';
  }
  lc_namespace = ['engram', 'retrievers'];

  private readonly engram: Engram;
  readonly userId?: string;
  readonly agentId?: string;
  readonly mode: 'search' | 'context';
  readonly k: number;
  readonly tokenBudget?: number;
  readonly fullContent: boolean;

  constructor(fields: EngramRetrieverInput) {
    super(fields);
    this.engram = fields.engram;
    this.userId = fields.userId;
    this.agentId = fields.agentId;
    this.mode = fields.mode ?? 'search';
    this.k = fields.k ?? 5;
    this.tokenBudget = fields.tokenBudget;
    this.fullContent = fields.fullContent ?? true;
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document[]> {
    const scope = { user_id: this.userId, agent_id: this.agentId };
    if (this.mode === 'context') {
      const { context, sources, tokens } = await this.engram.context({ query, ...scope, token_budget: this.tokenBudget });
      return context ? [new Document({ pageContent: context, metadata: { sources, tokens } })] : [];
    }
    const { results } = await this.engram.search({ query, ...scope, limit: this.k });
    return Promise.all(
      results.map(async (hit) => {
        const text = this.fullContent && hit.snippet.endsWith('…') ? (await this.engram.memories.get(hit.id)).content : hit.snippet;
        return new Document({ pageContent: text, id: hit.id, metadata: { ...hit.metadata, id: hit.id, score: hit.score, user_id: hit.user_id, agent_id: hit.agent_id } });
      }),
    );
  }
}

export interface EngramChatMessageHistoryInput {
  engram: Engram;
  /** The conversation: stored as the memories' `run_id`. */
  sessionId: string;
  /** The end user; recommended, so what is said in the conversation becomes the user's facts. */
  userId?: string;
  agentId?: string;
}

/** How each message type is labelled in the stored text (the same `role: text` form as the client's chat messages). */
const ROLES: Record<string, string> = { human: 'user', ai: 'assistant', system: 'system' };

/**
 * A LangChain chat message history kept in Engram: each message is a memory of the session (`run_id`),
 * so the conversation also feeds the user's facts, search and context.
 *
 * ```ts
 * const chain = new RunnableWithMessageHistory({
 *   runnable, inputMessagesKey: 'input', historyMessagesKey: 'history',
 *   getMessageHistory: (sessionId) => new EngramChatMessageHistory({ engram, sessionId, userId: 'alice' }),
 * });
 * ```
 */
export class EngramChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['engram', 'chat_history'];

  private readonly engram: Engram;
  readonly sessionId: string;
  readonly userId?: string;
  readonly agentId?: string;

  constructor(fields: EngramChatMessageHistoryInput) {
    super(fields);
    this.engram = fields.engram;
    this.sessionId = fields.sessionId;
    this.userId = fields.userId;
    this.agentId = fields.agentId;
  }

  /** The session's memories, oldest first. */
  private async memories(): Promise<Memory[]> {
    const all: Memory[] = [];
    for (let offset = 0; ; offset += 200) {
      const page = await this.engram.memories.list({ user_id: this.userId, agent_id: this.agentId, run_id: this.sessionId, limit: 200, offset });
      all.push(...page.memories);
      if (page.memories.length < 200 || all.length >= page.total) break;
    }
    // Memory ids are monotonic ULIDs: they break ties between messages written in the same millisecond.
    return all.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  }

  async getMessages(): Promise<BaseMessage[]> {
    return (await this.memories()).map((memory) => {
      const type = typeof memory.metadata.message_type === 'string' ? memory.metadata.message_type : 'human';
      const label = `${ROLES[type] ?? type}: `;
      const text = memory.content.startsWith(label) ? memory.content.slice(label.length) : memory.content;
      if (type === 'ai') return new AIMessage(text);
      if (type === 'system') return new SystemMessage(text);
      return new HumanMessage(text);
    });
  }

  async addMessage(message: BaseMessage): Promise<void> {
    const type = message.getType();
    const text = typeof message.content === 'string' ? message.content : message.text;
    if (!text) return;
    await this.engram.memories.add({
      content: [{ role: ROLES[type] ?? type, content: text }],
      user_id: this.userId,
      agent_id: this.agentId,
      run_id: this.sessionId,
      metadata: { source: 'langchain', message_type: type },
    });
  }

  override async addMessages(messages: BaseMessage[]): Promise<void> {
    // One at a time: the order of the writes is the order of the conversation.
    for (const message of messages) await this.addMessage(message);
  }

  /** Forgets every message of the session (the user's other memories stay). */
  override async clear(): Promise<void> {
    for (const memory of await this.memories()) await this.engram.memories.delete(memory.id);
  }
}
