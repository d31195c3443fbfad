import type Koa from 'koa';
import { isOperator } from '../../../core/operator-auth.js';
import type { Services } from '../../../core/services.js';
import type { BullMqQueue } from '../../../workers/bullmq/queue.js';

export const DASHBOARD_PATH = '/admin/queues';

/** HTTP basic auth with the operator credential (ADMIN_CREDENTIALS), never an API key. */
export function operatorAuth(credentials: string): Koa.Middleware {
  return async (ctx, next) => {
    if (!isOperator(ctx.get('authorization'), credentials)) {
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
