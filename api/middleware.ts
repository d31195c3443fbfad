import type { Context, Next } from 'koa';
import { randomUUID } from 'node:crypto';
import { ApiError, invalidKey, notFound } from '../core/errors.js';
import { hashApiKey } from '../core/ids.js';
import { outageErrorOf } from '../core/outages.js';
import { principalOf, type Principal } from '../core/principal.js';
import type { Services } from '../core/services.js';
import { jsonShapeProblem } from './json-shape.js';

export interface AppState {
  principal: Principal;
  requestId: string;
}

export type AppContext = Context & { state: AppState };

function sendError(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  ctx.body = { code: error.code, message: error.message };
  for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
}

/** Body-parser and framework errors that are the caller's fault become 422, never 500. */
function clientErrorOf(error: any): ApiError | null {
  const status = error?.status ?? error?.statusCode;
  if (typeof status !== 'number' || status < 400 || status >= 500) return null;
  if (error.type === 'entity.too.large' || status === 413) return new ApiError(422, 'invalid_request', 'body: request body is too large');
  if (error.type === 'entity.parse.failed' || status === 400) return new ApiError(422, 'invalid_request', 'body: invalid JSON');
  if (status === 415) return new ApiError(422, 'invalid_request', 'body: Content-Type must be application/json');
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new ApiError(422, 'invalid_request', 'body: unsupported content encoding');
  }
  return new ApiError(422, 'invalid_request', `request: ${error.message ?? 'malformed request'}`);
}

/**
 * What request logs name: the matched route pattern (`/v1/users/:end_user/memories`), never the
 * raw path or query string, which carry end-user ids and query text.
 */
const routeOf = (ctx: Context): string => (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? '(unmatched)';

export function errorHandler(svc: Services) {
  return async (ctx: Context, next: Next) => {
    const requestId = ctx.get('x-request-id') || randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw notFound(`No endpoint ${ctx.method} ${ctx.path}`);
    } catch (error) {
      if (error instanceof ApiError) sendError(ctx, error);
      else {
        const clientError = clientErrorOf(error);
        const outage = clientError ? null : outageErrorOf(error);
        if (clientError) sendError(ctx, clientError);
        else if (outage) {
          svc.logger.warn({ err: error, requestId, route: routeOf(ctx), status: outage.status }, 'backend unavailable');
          sendError(ctx, outage);
        } else {
          svc.logger.error({ err: error, requestId, route: routeOf(ctx) }, 'unhandled error');
          ctx.status = 500;
          ctx.body = { code: 'internal_error', message: 'Internal server error' };
        }
      }
    } finally {
      svc.logger.info(
        { requestId, method: ctx.method, route: routeOf(ctx), status: ctx.status, ms: Math.round((performance.now() - started) * 100) / 100 },
        'request',
      );
    }
  };
}

/** A body, when present, must be JSON; clients send Content-Type only with a body. */
export async function requireJsonBody(ctx: Context, next: Next) {
  const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.is('application/json', '+json')) {
    throw new ApiError(422, 'invalid_request', 'body: Content-Type must be application/json');
  }
  await next();
}

/** Deepest nesting any request body may have; free-form fields have tighter limits of their own. */
export const MAX_BODY_DEPTH = 64;

/**
 * Refuses absurdly nested bodies right after parsing (JSON.parse itself is iterative),
 * before validation, logging or storage could recurse into them.
 */
export async function limitBodyDepth(ctx: Context, next: Next) {
  const body = (ctx.request as Context['request'] & { body?: unknown }).body;
  if (body !== null && typeof body === 'object') {
    const problem = jsonShapeProblem(body, { maxDepth: MAX_BODY_DEPTH, maxChars: Number.POSITIVE_INFINITY });
    if (problem) {
      const field = problem.field === undefined ? 'body' : typeof problem.field === 'number' ? `body[${problem.field}]` : problem.field;
      throw new ApiError(422, 'invalid_request', `${field}: is nested too deeply (a request body allows at most ${MAX_BODY_DEPTH} levels)`);
    }
  }
  await next();
}

/** Resolves the Bearer key to a principal. */
export function authenticate(svc: Services) {
  return async (ctx: Context, next: Next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    if (!match) throw invalidKey();
    const key = await svc.store.keys.getByHash(hashApiKey(match[1]));
    if (!key || key.revokedAt) throw invalidKey();
    const workspace = await svc.store.workspaces.get(key.workspaceId);
    if (!workspace) throw invalidKey();
    ctx.state.principal = principalOf(key, workspace);
    await next();
  };
}

/** Requests that only acknowledge new writes, which the queue orders among themselves. */
const ACKNOWLEDGING = new Set(['POST /v1/batch', 'POST /v1/memories']);
/**
 * Reads that only see what the pipeline made of writes (vectors, facts, ready memories): a write still waiting to be
 * stored is not processed either, so they need not wait for it.
 */
const READS_OF_PROCESSED_WRITES = new Set(['POST /v1/memories/search', 'GET /v1/context', 'GET /v1/facts', 'GET /v1/profile', 'GET /v1/ping']);

/**
 * Before its body is read, every API request but one acknowledging new writes waits until the writes acknowledged
 * before it can be read (WriteQueue.readable): a client reads, updates or erases what it was told is accepted.
 * Acknowledgements skip the wait and hold background work back while they run (WriteQueue.acknowledging), so
 * that batches arriving together are each acknowledged at the cost of one insert.
 */
export function acknowledgedWritesFirst(svc: Services) {
  return async (ctx: Context, next: Next) => {
    if (!ctx.path.startsWith('/v1/') && ctx.path !== '/mcp') return next();
    const route = `${ctx.method} ${ctx.path}`;
    if (READS_OF_PROCESSED_WRITES.has(route)) return next();
    if (ACKNOWLEDGING.has(route)) {
      const ended = svc.queue.acknowledging();
      try {
        await next();
      } finally {
        ended();
      }
      return;
    }
    await svc.queue.readable();
    await next();
  };
}

/** Per-key per-second limit, shared across processes when Redis is configured. */
export function rateLimit(svc: Services) {
  return async (ctx: Context, next: Next) => {
    await svc.limits.checkRate(ctx.state.principal.keyId);
    await next();
  };
}

/** The parsed JSON body; an absent body reads as `{}` so validation names the missing fields. */
export function bodyOf(ctx: Context): unknown {
  return (ctx.request as Context['request'] & { body?: unknown }).body ?? {};
}
