import type { Context, Middleware, Next } from 'koa';
import helmet from 'koa-helmet';

/**
 * helmet's defaults on every response (nosniff, no-referrer, frame and cross-origin
 * policies, HSTS for deployments behind TLS). Its content security policy is left to
 * `apiHeaders`, because the queue dashboard's pages need their own scripts and styles.
 */
export const securityHeaders: Middleware = helmet({ contentSecurityPolicy: false });

const jsonCsp: Middleware = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
});

/** API responses are JSON with end-user content: nothing may run, frame or cache them. */
export async function apiHeaders(ctx: Context, next: Next) {
  ctx.set('Cache-Control', 'no-store');
  await jsonCsp(ctx, next);
}
