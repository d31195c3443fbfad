import { z } from 'zod';
import { isoDateTime, metadataSchema, pathIdSchema, queryInt, scopeId } from '../../validation.js';

export const MAX_CONTENT_CHARS = 16_000;

export const content = z.string().min(1).max(MAX_CONTENT_CHARS).refine((s) => s.trim().length > 0, { message: 'must not be blank' });

/** Body of POST /v1/memories; also one item of POST /v1/batch. */
export const memoryInputSchema = z.strictObject({
  content,
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  run_id: scopeId.optional(),
  metadata: metadataSchema.optional(),
  timestamp: isoDateTime.optional(),
});

export const updateMemorySchema = z.strictObject({
  content,
  expected_updated_at: isoDateTime.optional(),
});

export const listMemoriesQuery = z.object({
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  run_id: scopeId.optional(),
  limit: queryInt(1, 200, 50),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
});

/** Path `id` of the memory endpoints: any id that names no memory of the workspace is a 404. */
export const memoryIdSchema = pathIdSchema;
