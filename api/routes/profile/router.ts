import Router from '@koa/router';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import { PREDICATE_FAMILIES } from '../../../pipeline/types.js';
import type { AppState } from '../../middleware.js';
import { presentFact } from '../../presenters.js';
import { validate } from '../../validation.js';
import { profileQuery } from '../facts/schema.js';

export const PROFILE_MAX_FACTS = 200;

export function profileRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/v1/profile', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(profileQuery, ctx.query);
    const page = await svc.store.facts.query(
      { workspaceId: principal.workspace.id, userId: q.user_id, agentId: readAgent(principal, q.agent_id), asOf: q.as_of },
      { limit: PROFILE_MAX_FACTS, offset: 0 },
    );
    const facts = page.items.map(presentFact);
    const byFamily = Object.fromEntries(
      PREDICATE_FAMILIES.map((family) => [family, facts.filter((f) => f.predicate_family === family)] as const).filter(([, list]) => list.length > 0),
    );
    ctx.body = {
      user_id: q.user_id,
      as_of: q.as_of ?? new Date().toISOString(),
      facts,
      by_family: byFamily,
      total: page.total,
      truncated: page.total > facts.length,
    };
  });
  return router;
}
