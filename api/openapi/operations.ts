import type { z } from 'zod';
import { listAgentsQuery } from '../routes/agents/router.js';
import { auditQuery } from '../routes/audit/router.js';
import { batchSchema } from '../routes/batch/router.js';
import { contextQuery } from '../routes/context/router.js';
import { eventsQuery } from '../routes/events/router.js';
import { correctFactSchema, factsQuery, forgetFactSchema, profileQuery, writeFactSchema } from '../routes/facts/schema.js';
import { listMemoriesQuery, memoryInputSchema, updateMemorySchema } from '../routes/memories/schema.js';
import { searchSchema } from '../routes/search/router.js';
import { listUsersQuery } from '../routes/users/router.js';
import type { components } from './responses.js';

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete';

/** One documented endpoint; request schemas are the very ones the route validates with. */
export interface OperationDoc {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/v1/memories/{id}`. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  /** Needs `Authorization: Bearer <key>` (everything under /v1). */
  auth: boolean;
  scope?: 'memories:read' | 'memories:write';
  pathParams?: Record<string, string>;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out (it then reads as `{}`). */
  bodyOptional?: boolean;
  bodyExample?: unknown;
  queryExample?: Record<string, unknown>;
  success: { status: 200 | 202; schema: keyof typeof components; description: string };
  /** Error statuses this endpoint answers, besides the success. */
  errors: number[];
}

/** Statuses every rate-limited, scoped `/v1` endpoint can answer. */
const common = [401, 403, 422, 429, 503];
const withId = [...common, 404];

export const operations: OperationDoc[] = [
  {
    method: 'get',
    path: '/v1/ping',
    operationId: 'ping',
    tag: 'Account',
    summary: 'Check a key',
    description: 'Needs a valid key but no scope, quota or rate limit.',
    auth: true,
    success: { status: 200, schema: 'Ping', description: 'The key is valid' },
    errors: [401, 503],
  },
  {
    method: 'post',
    path: '/v1/memories',
    operationId: 'addMemory',
    tag: 'Memories',
    summary: 'Add a memory',
    description:
      'Stores the text and answers at once with `status: "processing"`; embedding, entity and fact extraction and the contradiction check run in the background (watch `GET /v1/events` or `GET /v1/memories/{id}`). Counts as one write.',
    auth: true,
    scope: 'memories:write',
    body: memoryInputSchema,
    bodyExample: { content: 'I live in Berlin and work at Siemens.', user_id: 'alice' },
    success: { status: 200, schema: 'Memory', description: 'The stored memory' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/memories',
    operationId: 'listMemories',
    tag: 'Memories',
    summary: 'List memories, newest first',
    auth: true,
    scope: 'memories:read',
    query: listMemoriesQuery,
    success: { status: 200, schema: 'MemoryList', description: 'One page of memories' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/memories/{id}',
    operationId: 'getMemory',
    tag: 'Memories',
    summary: 'Get one memory with its facts',
    auth: true,
    scope: 'memories:read',
    pathParams: { id: 'Memory id (`mem_…`); an id of no memory of this workspace is 404' },
    success: { status: 200, schema: 'Memory', description: 'The memory' },
    errors: withId,
  },
  {
    method: 'patch',
    path: '/v1/memories/{id}',
    operationId: 'updateMemory',
    tag: 'Memories',
    summary: 'Replace a memory’s content',
    description: 'Re-runs extraction; facts the new content contradicts are invalidated. `expected_updated_at` guards against lost updates (409 `stale_write`).',
    auth: true,
    scope: 'memories:write',
    pathParams: { id: 'Memory id (`mem_…`)' },
    body: updateMemorySchema,
    success: { status: 200, schema: 'Memory', description: 'The updated memory' },
    errors: [...withId, 409],
  },
  {
    method: 'delete',
    path: '/v1/memories/{id}',
    operationId: 'forgetMemory',
    tag: 'Memories',
    summary: 'Forget one memory',
    auth: true,
    scope: 'memories:write',
    pathParams: { id: 'Memory id (`mem_…`)' },
    success: { status: 200, schema: 'MemoryDeletion', description: 'Forgotten; its facts are invalidated and an audit row written' },
    errors: withId,
  },
  {
    method: 'get',
    path: '/v1/memories/{id}/history',
    operationId: 'memoryHistory',
    tag: 'Memories',
    summary: 'Lifecycle of one memory',
    description: 'Stays readable after the memory is forgotten.',
    auth: true,
    scope: 'memories:read',
    pathParams: { id: 'Memory id (`mem_…`)' },
    success: { status: 200, schema: 'MemoryHistory', description: 'Events, oldest first' },
    errors: withId,
  },
  {
    method: 'post',
    path: '/v1/memories/search',
    operationId: 'searchMemories',
    tag: 'Retrieval',
    summary: 'Semantic search',
    description: 'Cosine similarity between the query embedding and memory embeddings; counts against the query quota.',
    auth: true,
    scope: 'memories:read',
    body: searchSchema,
    bodyExample: { query: 'where does alice live', user_id: 'alice', limit: 5 },
    success: { status: 200, schema: 'SearchResults', description: 'Hits by descending score' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/context',
    operationId: 'getContext',
    tag: 'Retrieval',
    summary: 'Prompt-ready context',
    description: 'Live facts first, then the most relevant memories, within `token_budget` (4 characters per token).',
    auth: true,
    scope: 'memories:read',
    query: contextQuery,
    queryExample: { query: 'where does alice live', user_id: 'alice' },
    success: { status: 200, schema: 'Context', description: 'The assembled block and its sources' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/facts',
    operationId: 'listFacts',
    tag: 'Facts',
    summary: 'Query typed facts',
    description: 'Live facts by default; `include_invalidated=true` adds history, `as_of` gives what was true then, `entity` matches subject or object under every known name.',
    auth: true,
    scope: 'memories:read',
    query: factsQuery,
    success: { status: 200, schema: 'FactList', description: 'Facts by `valid_from` descending' },
    errors: common,
  },
  {
    method: 'post',
    path: '/v1/facts',
    operationId: 'writeFact',
    tag: 'Facts',
    summary: 'Write a structured fact',
    description: 'Skips extraction; the contradiction check runs.',
    auth: true,
    scope: 'memories:write',
    body: writeFactSchema,
    bodyExample: { subject: 'user', predicate: 'lives_in', object: 'Berlin', user_id: 'alice' },
    success: { status: 200, schema: 'WriteFact', description: 'The fact, with the ids it superseded' },
    errors: common,
  },
  {
    method: 'post',
    path: '/v1/facts/{id}/forget',
    operationId: 'forgetFact',
    tag: 'Facts',
    summary: 'Mark a fact as no longer true',
    description: 'Idempotent; `at` (default now) must not precede the fact’s `valid_from`.',
    auth: true,
    scope: 'memories:write',
    pathParams: { id: 'Fact id (`fct_…`)' },
    body: forgetFactSchema,
    bodyOptional: true,
    success: { status: 200, schema: 'FactForget', description: 'Forgotten (or already forgotten)' },
    errors: withId,
  },
  {
    method: 'patch',
    path: '/v1/facts/{id}',
    operationId: 'correctFact',
    tag: 'Facts',
    summary: 'Correct a live fact',
    description: 'Correcting a fact that is already history is 409 `fact_not_current`.',
    auth: true,
    scope: 'memories:write',
    pathParams: { id: 'Fact id (`fct_…`)' },
    body: correctFactSchema,
    success: { status: 200, schema: 'WriteFact', description: 'The corrected fact; `invalidated` lists the old id' },
    errors: [...withId, 409],
  },
  {
    method: 'get',
    path: '/v1/profile',
    operationId: 'getProfile',
    tag: 'Facts',
    summary: 'A user’s live facts by family',
    auth: true,
    scope: 'memories:read',
    query: profileQuery,
    success: { status: 200, schema: 'Profile', description: 'At most 200 facts' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/users',
    operationId: 'listUsers',
    tag: 'Scopes',
    summary: 'End users with active data',
    auth: true,
    scope: 'memories:read',
    query: listUsersQuery,
    success: { status: 200, schema: 'UserList', description: 'One page of users' },
    errors: common,
  },
  {
    method: 'delete',
    path: '/v1/users/{end_user}/memories',
    operationId: 'eraseUser',
    tag: 'Scopes',
    summary: 'Erase an end user',
    description: 'Physically removes the user’s memories, facts, vectors and queued work in the key’s workspace and agent namespace; one audit row keeps counts only. An unknown user is 200 with zero counts.',
    auth: true,
    scope: 'memories:write',
    pathParams: { end_user: 'The `user_id` used when writing' },
    success: { status: 200, schema: 'UserErasure', description: 'Erased' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/agents',
    operationId: 'listAgents',
    tag: 'Scopes',
    summary: 'Agent namespaces and the plan’s cap',
    auth: true,
    scope: 'memories:read',
    query: listAgentsQuery,
    success: { status: 200, schema: 'AgentList', description: 'One page of agents' },
    errors: common,
  },
  {
    method: 'delete',
    path: '/v1/agents/{id}',
    operationId: 'purgeAgent',
    tag: 'Scopes',
    summary: 'Hard-purge an agent namespace',
    auth: true,
    scope: 'memories:write',
    pathParams: { id: 'The `agent_id`' },
    success: { status: 200, schema: 'AgentPurge', description: 'Purged; its place under the cap is free again' },
    errors: withId,
  },
  {
    method: 'post',
    path: '/v1/batch',
    operationId: 'submitBatch',
    tag: 'Batch',
    summary: 'Import up to 500 memories',
    description: 'Items run the full pipeline in arrival order; a batch that does not fit the remaining write quota is refused whole.',
    auth: true,
    scope: 'memories:write',
    body: batchSchema,
    bodyExample: { memories: [{ content: 'I moved to Lisbon.', user_id: 'alice', timestamp: '2024-03-01T00:00:00Z' }] },
    success: { status: 202, schema: 'Batch', description: 'Accepted; poll `GET /v1/batch/{id}`' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/batch/{id}',
    operationId: 'getBatch',
    tag: 'Batch',
    summary: 'Batch job status',
    auth: true,
    scope: 'memories:read',
    pathParams: { id: 'Batch id (`bat_…`)' },
    success: { status: 200, schema: 'Batch', description: 'The batch job' },
    errors: withId,
  },
  {
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tag: 'Batch',
    summary: 'Recent writes and their pipeline status',
    auth: true,
    scope: 'memories:read',
    query: eventsQuery,
    success: { status: 200, schema: 'Events', description: 'Recent writes, newest first' },
    errors: common,
  },
  {
    method: 'get',
    path: '/v1/audit',
    operationId: 'listAudit',
    tag: 'Account',
    summary: 'Audit log',
    auth: true,
    scope: 'memories:read',
    query: auditQuery,
    success: { status: 200, schema: 'AuditLog', description: 'Audit rows, newest first' },
    errors: common,
  },
];
