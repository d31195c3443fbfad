import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PREDICATE_FAMILIES } from '../../pipeline/types.js';
import type { EngramHttpClient, EngramResponse } from './client.js';

/**
 * Engram's MCP tools. Each one is a single REST call with the caller's key, so
 * scopes, agent confinement, quotas, rate limits and error codes are exactly the
 * HTTP API's. Arguments and defaults of the first four follow compat-notes.
 */
export function createMcpServer(client: EngramHttpClient, version: string): McpServer {
  const server = new McpServer({ name: 'engram', version }, { capabilities: { tools: {} } });

  /** A 2xx is the tool's result; anything else is a tool error carrying the API's `{code, message}`. */
  const result = (res: EngramResponse, text: (body: any) => string = (b) => JSON.stringify(b, null, 2)): CallToolResult => {
    if (res.status >= 200 && res.status < 300) {
      return { content: [{ type: 'text', text: text(res.body) }], structuredContent: res.body ?? {} };
    }
    const code = res.body?.code ?? 'error';
    const message = res.body?.message ?? `HTTP ${res.status}`;
    return { isError: true, content: [{ type: 'text', text: `${res.status} ${code}: ${message}` }], structuredContent: { status: res.status, code, message } };
  };

  const userId = z.string().optional().describe('End user the memory belongs to; omit to cover every user the key can see');
  const readOnly = { readOnlyHint: true, openWorldHint: false };

  server.registerTool(
    'get_context',
    {
      title: 'Get context',
      description: 'Prompt-ready context for a query: the user’s current facts first, then the most relevant memories, within a token budget.',
      inputSchema: { query: z.string().describe('What the agent is about to answer'), user_id: userId, token_budget: z.number().int().default(800) },
      annotations: readOnly,
    },
    async (args) => result(await client.request('GET', 'v1/context', { query: args }), (b) => b.context || '(nothing stored for this scope)'),
  );

  server.registerTool(
    'add',
    {
      title: 'Add a memory',
      description: 'Stores a piece of text; facts are extracted in the background and supersede older contradicting ones.',
      inputSchema: {
        content: z.string().describe('Plain text or Markdown, at most 16,000 characters'),
        user_id: userId,
        agent_id: z.string().optional(),
        run_id: z.string().optional(),
        timestamp: z.string().optional().describe('ISO 8601; when the statement was true (becomes the facts’ valid_from)'),
        metadata: z.record(z.string(), z.unknown()).optional(),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args) => result(await client.request('POST', 'v1/memories', { body: args })),
  );

  server.registerTool(
    'search',
    {
      title: 'Search memories',
      description: 'Semantic search over stored memories, best match first.',
      inputSchema: { query: z.string(), user_id: userId, limit: z.number().int().default(15) },
      annotations: readOnly,
    },
    async (args) => result(await client.request('POST', 'v1/memories/search', { body: args })),
  );

  server.registerTool(
    'get_facts',
    {
      title: 'Get facts',
      description: 'Typed facts (subject, predicate, object) with validity times; live ones by default, history with include_invalidated, a past view with as_of.',
      inputSchema: {
        user_id: userId,
        entity: z.string().optional().describe('Facts whose subject or object is this entity, under any known name'),
        subject: z.string().optional(),
        predicate_family: z.enum(PREDICATE_FAMILIES).optional(),
        as_of: z.string().optional().describe('ISO 8601 date: what was true then'),
        include_invalidated: z.boolean().default(false),
        limit: z.number().int().default(50),
      },
      annotations: readOnly,
    },
    async (args) => result(await client.request('GET', 'v1/facts', { query: args })),
  );

  server.registerTool(
    'get_profile',
    {
      title: 'Get a user profile',
      description: 'A user’s live facts grouped by family (preferences, people, places, work, …).',
      inputSchema: { user_id: z.string(), as_of: z.string().optional() },
      annotations: readOnly,
    },
    async (args) => result(await client.request('GET', 'v1/profile', { query: args })),
  );

  server.registerTool(
    'get_memory',
    {
      title: 'Get a memory',
      description: 'One memory with its extracted facts and pipeline status (processing, ready, error).',
      inputSchema: { memory_id: z.string().describe('mem_…') },
      annotations: readOnly,
    },
    async ({ memory_id }) => result(await client.request('GET', `v1/memories/${encodeURIComponent(memory_id)}`)),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a memory',
      description: 'Forgets one memory; the facts derived from it stop being current. Audited.',
      inputSchema: { memory_id: z.string().describe('mem_…') },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ memory_id }) => result(await client.request('DELETE', `v1/memories/${encodeURIComponent(memory_id)}`)),
  );

  return server;
}
