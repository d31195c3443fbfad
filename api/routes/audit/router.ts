import Router from '@koa/router';
import { z } from 'zod';
import { forbidden } from '../../../core/errors.js';
import { requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';
import { presentAudit } from '../../presenters.js';
import { isoDateTime, queryInt, scopeId, validate } from '../../validation.js';

export const auditQuery = z.object({
  user_id: scopeId.optional(),
  action: z.string().min(1).max(100).optional(),
  since: isoDateTime.optional(),
  until: isoDateTime.optional(),
  limit: queryInt(1, 1000, 100),
  offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0),
});

export function auditRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/v1/audit', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    // The audit log spans every agent namespace of the workspace (user ids, memory ids).
    if (principal.agentId !== null) throw forbidden(`The audit log spans the workspace; this key is confined to agent_id ${principal.agentId}`);
    const q = validate(auditQuery, ctx.query);
    const page = await svc.store.audit.list(
      { workspaceId: principal.workspace.id, userId: q.user_id, action: q.action, since: q.since, until: q.until },
      { limit: q.limit, offset: q.offset },
    );
    ctx.body = { events: page.items.map(presentAudit), total: page.total };
  });
  return router;
}
