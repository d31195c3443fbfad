import Router from '@koa/router';
import { z } from 'zod';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';
import { queryInt, scopeId, validate } from '../../validation.js';

export const eventsQuery = z.object({
  user_id: scopeId.optional(),
  status: z.enum(['processing', 'ready', 'error']).optional(),
  limit: queryInt(1, 200, 50),
});

/** How clients learn that extraction finished: recent writes and their pipeline status. */
export function eventRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/v1/events', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(eventsQuery, ctx.query);
    const scope = { workspaceId: principal.workspace.id, userId: q.user_id, agentId: readAgent(principal, undefined) };
    const page = await svc.store.memories.list({ ...scope, status: q.status }, { limit: q.limit, offset: 0 });
    const processing = await svc.store.memories.count({ ...scope, status: 'processing' });
    ctx.body = {
      events: page.items.map((m) => ({ memory_id: m.id, user_id: m.userId, agent_id: m.agentId, status: m.status, created_at: m.createdAt })),
      processing,
    };
  });
  return router;
}
