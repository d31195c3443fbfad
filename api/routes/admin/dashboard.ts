import { createHash, timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import type { Services } from '../../../core/services.js';
import type { BullMqQueue } from '../../../workers/bullmq/queue.js';

export const DASHBOARD_PATH = '/admin/queues';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time comparison of a given secret with the expected one. Both sides are
 * hashed first so that the comparison takes the same time whatever the given length,
 * and the expected secret's length does not leak either.
 */
export const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/** HTTP basic auth with the operator credential (ADMIN_CREDENTIALS), never an API key. */
export function operatorAuth(credentials: string): Koa.Middleware {
  return async (ctx, next) => {
    const match = /^Basic\s+(\S+)$/i.exec(ctx.get('authorization'));
    const given = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    if (!sameSecret(given, credentials)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="engram queues"');
      ctx.body = { code: 'invalid_credentials', message: 'Operator credentials required' };
      return;
    }
    await next();
  };
}

/**
 * bull-board over the six stage queues, when the pipeline runs on BullMQ and an operator credential
 * is configured. The board (a large module graph) loads on the first dashboard request, not at start-up.
 */
export function mountQueueDashboard(app: Koa<any>, svc: Services): boolean {
  const credentials = svc.config.ADMIN_CREDENTIALS;
  if (!credentials || svc.queue.kind !== 'bullmq') return false;
  const queue = svc.queue as BullMqQueue;
  let board: Promise<Koa.Middleware> | null = null;
  const loadBoard = async (): Promise<Koa.Middleware> => {
    const [{ createBullBoard }, { BullMQAdapter }, { KoaAdapter }] = await Promise.all([
      import('@bull-board/api'),
      import('@bull-board/api/bullMQAdapter'),
      import('@bull-board/koa'),
    ]);
    const adapter = new KoaAdapter();
    adapter.setBasePath(DASHBOARD_PATH);
    createBullBoard({
      queues: Object.values(queue.queues).map((q) => new BullMQAdapter(q, { readOnlyMode: false })),
      serverAdapter: adapter as any,
      options: { uiConfig: { boardTitle: 'Engram queues' } },
    });
    return adapter.registerPlugin() as Koa.Middleware;
  };
  const guard = operatorAuth(credentials);
  app.use(async (ctx, next) => {
    if (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`)) return next();
    await guard(ctx, async () => {
      board ??= loadBoard().catch((error) => {
        board = null;
        throw error;
      });
      await (await board)(ctx, next);
    });
  });
  return true;
}
