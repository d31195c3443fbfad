import { z } from 'zod';
import { PREDICATE_FAMILIES, TENSES } from '../../pipeline/types.js';

/**
 * Response shapes, as the presenters and commands build them. They exist for the
 * published OpenAPI document; the schema fuzzer checks live responses against them.
 */

const isoString = z.string().meta({ format: 'date-time' });
const nullableString = z.string().nullable();
const count = z.int().min(0);
const metadata = z.record(z.string(), z.unknown());

export const errorBody = z
  .object({
    code: z.string().meta({ description: 'Stable slug, e.g. `invalid_request`, `not_found`, `rate_limit_exceeded`' }),
    message: z.string().meta({ description: 'Human text; validation messages read `<field>: <reason>`' }),
  })
  .meta({ description: 'Every error body is exactly `{code, message}`.' });

const factCore = {
  id: z.string().meta({ description: '`fct_…`' }),
  subject: z.string(),
  predicate: z.string().meta({ description: 'Canonical predicate, e.g. `lives_in`' }),
  object: z.string(),
  predicate_family: z.enum(PREDICATE_FAMILIES),
  valid_from: isoString,
  subject_type: z.enum(['user', 'person', 'place', 'organization', 'thing', 'unknown']),
  object_is_literal: z.boolean(),
  tense: z.enum(TENSES as [string, ...string[]]),
  user_id: nullableString,
  agent_id: nullableString,
  created_at: isoString,
  observation_count: count,
  last_confirmed_at: isoString,
  source_memory_ids: z.array(z.string()),
};

export const writeFact = z
  .object({ ...factCore, invalidated: z.array(z.string()).meta({ description: 'Ids of earlier facts this fact superseded' }) })
  .meta({ description: 'A fact as add, update and memory reads return it.' });

export const fact = z
  .object({
    ...factCore,
    predicate_raw: z.string(),
    confidence: z.number(),
    invalid_at: isoString.nullable(),
    invalidated_by: nullableString.meta({
      description: 'Superseding fact id, `memory_deleted`, `superseded_before_recorded` or the audit id of a forget; null while live',
    }),
    source_memory_id: nullableString,
  })
  .meta({ description: 'A fact as the facts endpoints return it.' });

export const memory = z
  .object({
    id: z.string().meta({ description: '`mem_…`' }),
    content: z.string(),
    user_id: nullableString,
    agent_id: nullableString,
    run_id: nullableString,
    metadata,
    created_at: isoString,
    updated_at: isoString,
    status: z.enum(['processing', 'ready', 'error']),
    facts: z.array(writeFact),
  })
  ;

export const memoryList = z.object({ memories: z.array(memory), total: count });

export const memoryHistory = z
  .object({
    id: z.string(),
    events: z.array(
      z.object({
        event: z.enum(['created', 'updated', 'fact_extracted', 'fact_invalidated', 'deleted']),
        at: isoString,
        fact: z.string().optional().meta({ description: '`subject predicate object`' }),
        fact_id: z.string().optional(),
      }),
    ),
  })
  ;

export const memoryDeletion = z
  .object({ id: z.string(), status: z.literal('forgotten'), facts_invalidated: count, audit_id: z.string() })
  ;

export const searchResults = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        score: z.number().min(0).max(1),
        snippet: z.string().max(280),
        user_id: nullableString,
        agent_id: nullableString,
        metadata,
      }),
    ),
  })
  ;

export const context = z
  .object({
    context: z.string().meta({ description: '`stable + "\\n\\n" + volatile` when both are non-empty' }),
    tokens: count,
    sources: z.array(z.string()).meta({ description: 'Fact and memory ids used, most relevant first' }),
    stable: z.string().meta({ description: 'The facts block' }),
    volatile: z.string().meta({ description: 'The memories block' }),
    stable_hash: z.string().meta({ description: 'sha256 hex of `stable`' }),
  })
  ;

export const factList = z.object({ facts: z.array(fact), total: count });

export const factForget = z
  .object({ id: z.string(), status: z.enum(['forgotten', 'already_forgotten']), invalid_at: isoString.nullable(), audit_id: z.string() })
  ;

export const profile = z
  .object({
    user_id: z.string(),
    as_of: isoString,
    facts: z.array(fact),
    by_family: z.record(z.string(), z.array(fact)),
    total: count,
    truncated: z.boolean(),
  })
  ;

export const userList = z
  .object({ users: z.array(z.object({ user_id: nullableString, memories: count, facts: count, last_active: isoString })), total: count })
  ;

export const userErasure = z
  .object({
    user_id: z.string(),
    memories_forgotten: count,
    facts_invalidated: count,
    audit_id: z.string(),
    memories_deleted: count,
    facts_deleted: count,
    erasure: z.literal('permanent'),
  })
  ;

export const agentList = z
  .object({
    agents: z.array(z.object({ agent_id: z.string(), memories: count, facts: count, last_active: isoString })),
    total: count,
    cap: count,
    used: count,
  })
  ;

export const agentPurge = z
  .object({ agent_id: z.string(), memories_deleted: count, facts_deleted: count, audit_id: z.string() })
  ;

export const ping = z
  .object({
    ok: z.literal(true),
    tier: z.string(),
    region: z.string(),
    scopes: z.array(z.string()),
    workspace: z.string(),
    agent_id: nullableString,
  })
  ;

export const batch = z
  .object({
    id: z.string(),
    status: z.enum(['processing', 'completed']),
    received: count,
    imported: count,
    failed: count,
    errors: z.array(z.object({ index: count, memory_id: nullableString, message: z.string() })),
    created_at: isoString,
    completed_at: isoString.nullable(),
  })
  ;

export const events = z
  .object({
    events: z.array(
      z.object({ memory_id: z.string(), user_id: nullableString, agent_id: nullableString, status: z.enum(['processing', 'ready', 'error']), created_at: isoString }),
    ),
    processing: count,
  })
  ;

export const audit = z
  .object({
    events: z.array(
      z.object({
        id: z.string(),
        ts: isoString,
        actor: z.string(),
        action: z.string(),
        result: z.string(),
        user_id: nullableString,
        target_id: nullableString,
        meta: z.record(z.string(), z.unknown()),
      }),
    ),
    total: count,
  })
  ;

/** Named component schemas of the document, referenced as `#/components/schemas/<name>`. */
export const components = {
  Error: errorBody,
  Memory: memory,
  MemoryList: memoryList,
  MemoryHistory: memoryHistory,
  MemoryDeletion: memoryDeletion,
  WriteFact: writeFact,
  Fact: fact,
  FactList: factList,
  FactForget: factForget,
  SearchResults: searchResults,
  Context: context,
  Profile: profile,
  UserList: userList,
  UserErasure: userErasure,
  AgentList: agentList,
  AgentPurge: agentPurge,
  Ping: ping,
  Batch: batch,
  Events: events,
  AuditLog: audit,
} as const;
