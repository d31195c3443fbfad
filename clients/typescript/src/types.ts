import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];
type JsonBody<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;
type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
/** A date the API reads as ISO 8601: a string (`2025-01-31`, `2025-01-31T12:00:00Z`) or a Date. */
export type DateInput = string | Date;

export type Memory = Schemas['Memory'];
export type MemoryStatus = Memory['status'];
export type MemoryList = Schemas['MemoryList'];
export type MemoryHistory = Schemas['MemoryHistory'];
export type MemoryHistoryEvent = MemoryHistory['events'][number];
export type MemoryDeletion = Schemas['MemoryDeletion'];
/** A fact as add, update and memory reads return it (with the ids it superseded). */
export type WriteFact = Schemas['WriteFact'];
/** A fact as the facts endpoints return it (with `invalid_at`, `confidence`, ...). */
export type Fact = Schemas['Fact'];
export type PredicateFamily = Fact['predicate_family'];
export type FactList = Schemas['FactList'];
export type FactForget = Schemas['FactForget'];
export type SearchResults = Schemas['SearchResults'];
export type SearchHit = SearchResults['results'][number];
export type Context = Schemas['Context'];
export type Profile = Schemas['Profile'];
export type UserList = Schemas['UserList'];
export type UserSummary = UserList['users'][number];
export type UserErasure = Schemas['UserErasure'];
export type AgentList = Schemas['AgentList'];
export type AgentPurge = Schemas['AgentPurge'];
export type Ping = Schemas['Ping'];
export type Batch = Schemas['Batch'];
export type BatchError = Batch['errors'][number];
export type Events = Schemas['Events'];
export type MemoryEvent = Events['events'][number];
export type AuditLog = Schemas['AuditLog'];
export type ErrorBody = Schemas['Error'];

/** One chat message; a list of them is stored as one text, a `role: content` line each. */
export interface ChatMessage {
  role: string;
  content: string;
}

export type AddMemoryInput = Omit<JsonBody<'addMemory'>, 'content' | 'timestamp'> & {
  /** Plain text or Markdown (at most 16,000 characters), or chat messages joined into one text. */
  content: string | readonly ChatMessage[];
  /** When the content was true: becomes the facts' `valid_from`. */
  timestamp?: DateInput;
};
export type BatchItem = Omit<JsonBody<'submitBatch'>['memories'][number], 'content' | 'timestamp'> & {
  content: string | readonly ChatMessage[];
  timestamp?: DateInput;
};
export type UpdateMemoryInput = Omit<JsonBody<'updateMemory'>, 'expected_updated_at'> & {
  /** The `updated_at` last read; a newer write makes this a 409 `stale_write` (`ConflictError`). */
  expected_updated_at?: DateInput;
};
export type ListMemoriesQuery = Query<'listMemories'>;
export type SearchInput = JsonBody<'searchMemories'>;
export type ContextQuery = Query<'getContext'>;
export type FactsQuery = Omit<Query<'listFacts'>, 'as_of' | 'include_invalidated'> & {
  /** What was true at that moment. */
  as_of?: DateInput;
  /** Adds superseded and forgotten facts. */
  include_invalidated?: boolean;
};
export type WriteFactInput = Omit<JsonBody<'writeFact'>, 'valid_from'> & { valid_from?: DateInput };
export type CorrectFactInput = JsonBody<'correctFact'>;
export type ProfileQuery = Omit<Query<'getProfile'>, 'as_of'> & { as_of?: DateInput };
export type ListUsersQuery = Query<'listUsers'>;
export type ListAgentsQuery = Query<'listAgents'>;
export type EventsQuery = Query<'listEvents'>;
export type AuditQuery = Omit<Query<'listAudit'>, 'since' | 'until'> & { since?: DateInput; until?: DateInput };
