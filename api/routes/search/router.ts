import Router from '@koa/router';
import { z } from 'zod';
import { requireScope } from '../../../core/principal.js';
import { searchMemories } from '../../../core/queries/search.js';
import type { Services } from '../../../core/services.js';
import { bodyOf, type AppState } from '../../middleware.js';
import { metadataSchema, scopeId, validate } from '../../validation.js';

export const searchSchema = z.strictObject({
  query: z.string().min(1).max(16_000).refine((s) => s.trim().length > 0, { message: 'must not be blank' }),
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  run_id: scopeId.optional(),
  metadata: metadataSchema.optional(),
  limit: z.number().int().min(1).max(50).default(15),
});

export function searchRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/v1/memories/search', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:read');
    ctx.body = await searchMemories(svc, ctx.state.principal, validate(searchSchema, bodyOf(ctx)));
  });
  return router;
}
