import Router from '@koa/router';
import type { Services } from '../../../core/services.js';

/** Liveness and readiness for orchestrators; no key needed. */
export function healthRoutes(svc: Services): Router {
  const router = new Router();
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true };
  });
  router.get('/readyz', async (ctx) => {
    const checks: Record<string, string> = {};
    const probe = async (name: string, ping: () => Promise<unknown>) => {
      try {
        await ping();
        checks[name] = 'ok';
      } catch (error) {
        checks[name] = error instanceof Error ? error.message : String(error);
      }
    };
    await Promise.all([
      probe('store', () => svc.store.ping()),
      probe('vectors', () => svc.vectors.ping()),
      probe('queue', () => svc.queue.ping()),
    ]);
    const ready = Object.values(checks).every((v) => v === 'ok');
    ctx.status = ready ? 200 : 503;
    const failing = Object.entries(checks).filter(([, v]) => v !== 'ok');
    ctx.body = ready
      ? { ok: true, checks }
      : { code: 'not_ready', message: `Unreachable: ${failing.map(([name, error]) => `${name} (${error})`).join('; ')}` };
  });
  return router;
}
