import Router from '@koa/router';
import { z } from 'zod';
import { eraseUser } from '../../../core/commands/erasure.js';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';
import { pathParam, queryInt, scopeId, validate } from '../../validation.js';

export const listUsersQuery = z.object({ agent_id: scopeId.optional(), limit: queryInt(1, 200, 50), offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0) });

export function userRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/v1/users', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(listUsersQuery, ctx.query);
    const agentId = readAgent(principal, q.agent_id);
    const page = await svc.store.memories.summarizeByUser(principal.workspace.id, agentId, { limit: q.limit, offset: q.offset });
    const facts = await svc.store.facts.countLiveByUser(principal.workspace.id, agentId, page.items.map((u) => u.key));
    ctx.body = {
      users: page.items.map((u) => ({ user_id: u.key, memories: u.memories, facts: facts.get(u.key) ?? 0, last_active: u.lastActive })),
      total: page.total,
    };
  });

  // An empty path segment: the contract answers 422 here, not 404.
  router.delete('/v1/users//memories', async () => {
    pathParam('end_user', '');
  });

  router.delete('/v1/users/:end_user/memories', async (ctx) => {
    const userId = pathParam('end_user', ctx.params.end_user);
    ctx.body = await eraseUser(svc, ctx.state.principal, userId);
  });

  return router;
}
