import Router from '@koa/router';
import { z } from 'zod';
import { requireScope } from '../../../core/principal.js';
import { DEFAULT_TOKEN_BUDGET, assembleContext } from '../../../core/queries/context.js';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';
import { queryInt, scopeId, validate } from '../../validation.js';

export const contextQuery = z.object({
  query: z.string().min(1).max(16_000),
  user_id: scopeId.optional(),
  agent_id: scopeId.optional(),
  token_budget: queryInt(1, 1_000_000, DEFAULT_TOKEN_BUDGET),
});

export function contextRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/v1/context', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:read');
    ctx.body = await assembleContext(svc, ctx.state.principal, validate(contextQuery, ctx.query));
  });
  return router;
}
