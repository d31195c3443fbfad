import Router from '@koa/router';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';

/** Needs a valid key but no scope, quota or rate limit. */
export function pingRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  router.get('/v1/ping', (ctx) => {
    const p = ctx.state.principal;
    ctx.body = { ok: true, tier: p.workspace.plan, region: svc.config.REGION, scopes: p.scopes, workspace: p.workspace.slug, agent_id: p.agentId };
  });
  return router;
}
