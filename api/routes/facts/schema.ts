import { z } from 'zod';
import { PREDICATE_FAMILIES, TENSES } from '../../../pipeline/types.js';
import { isoDateTime, pathIdSchema, queryBool, queryInt, scopeId } from '../../validation.js';

const text = z.string().min(1).max(1_000).refine((s) => s.trim().length > 0, { message: 'must not be blank' });

export const factsQuery = z.object({
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  run_id: scopeId.optional(),
  subject: z.string().min(1).max(1_000).optional(),
  entity: z.string().min(1).max(1_000).optional(),
  predicate: z.string().min(1).max(1_000).optional(),
  predicate_family: z.enum(PREDICATE_FAMILIES).optional(),
  as_of: isoDateTime.optional(),
  include_invalidated: queryBool,
  limit: queryInt(1, 200, 50),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
});

export const writeFactSchema = z.strictObject({
  subject: text,
  predicate: text,
  object: text,
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  run_id: scopeId.optional(),
  valid_from: isoDateTime.optional(),
  subject_type: z.enum(['user', 'person', 'place', 'organization', 'thing', 'unknown']).default('unknown'),
  object_is_literal: z.boolean().default(false),
  confidence: z.number().min(0).max(1).default(0.9),
  tense: z.enum(TENSES as [string, ...string[]]).default('current') as z.ZodType<'current' | 'past' | 'planned'>,
});

export const forgetFactSchema = z.strictObject({ at: isoDateTime.optional() });

export const correctFactSchema = z
  .strictObject({ subject: text.optional(), predicate: text.optional(), object: text.optional() })
  .refine((b) => b.subject !== undefined || b.predicate !== undefined || b.object !== undefined, {
    message: 'at least one of subject, predicate, object is required',
  });

/** Path `id` of the fact endpoints: any id that names no fact of the workspace is a 404. */
export const factIdSchema = pathIdSchema;

export const profileQuery = z.object({
  user_id: scopeId,
  agent_id: scopeId.optional(),
  as_of: isoDateTime.optional(),
});
