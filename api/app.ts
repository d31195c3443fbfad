import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { ApiError } from '../core/errors.js';
import type { Services } from '../core/services.js';
import { authenticate, errorHandler, limitBodyDepth, rateLimit, acknowledgedWritesFirst, requireJsonBody, type AppState } from './middleware.js';
import { agentRoutes } from './routes/agents/router.js';
import { auditRoutes } from './routes/audit/router.js';
import { batchRoutes } from './routes/batch/router.js';
import { contextRoutes } from './routes/context/router.js';
import { eventRoutes } from './routes/events/router.js';
import { factRoutes } from './routes/facts/router.js';
import { memoryRoutes } from './routes/memories/router.js';
import { pingRoutes } from './routes/ping/router.js';
import { profileRoutes } from './routes/profile/router.js';
import { searchRoutes } from './routes/search/router.js';
import { userRoutes } from './routes/users/router.js';
import { healthRoutes } from './routes/health/router.js';
import { mountQueueDashboard } from './routes/admin/dashboard.js';
import { apiHeaders, securityHeaders } from './security-headers.js';
import { openApiRoutes } from './routes/openapi/router.js';
import { mountMetrics } from './routes/metrics/router.js';
import { mcpRoutes } from './routes/mcp/router.js';

/** Largest accepted JSON body: a full 500-item batch of 16,000-character memories fits. */
export const MAX_BODY = '12mb';

/** The authenticated `/v1` API; its routes are what `/openapi.json` documents. */
export function apiRouter(svc: Services): Router<AppState> {
  const api = new Router<AppState>();
  api.use(authenticate(svc));
  api.use(pingRoutes(svc).routes());
  // Everything but ping is rate limited per key.
  const limited = new Router<AppState>();
  limited.use(rateLimit(svc));
  for (const routes of [searchRoutes, memoryRoutes, contextRoutes, factRoutes, profileRoutes, userRoutes, agentRoutes, batchRoutes, eventRoutes, auditRoutes]) {
    limited.use(routes(svc).routes());
  }
  api.use(limited.routes());
  return api;
}

export function createApp(svc: Services): Koa<AppState> {
  const app = new Koa<AppState>();
  app.proxy = true;
  const api = apiRouter(svc);

  const health = healthRoutes(svc);
  const openApi = openApiRoutes();
  const mcp = mcpRoutes(svc);
  mountMetrics(app, svc, [health, openApi, mcp, api]);
  app.use(errorHandler(svc));
  app.use(securityHeaders);
  mountQueueDashboard(app, svc);
  app.use(apiHeaders);
  app.use(requireJsonBody);
  app.use(acknowledgedWritesFirst(svc));
  app.use(bodyParser({ enableTypes: ['json'], jsonLimit: MAX_BODY, encoding: 'utf-8' }));
  app.use(limitBodyDepth);
  app.use(health.routes());
  app.use(openApi.routes());
  app.use(mcp.routes());
  app.use(api.routes());
  app.use(
    api.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'Method not allowed for this path'),
      notImplemented: () => new ApiError(405, 'method_not_allowed', 'Method not allowed for this path'),
    }),
  );
  return app;
}
