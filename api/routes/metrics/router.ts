import type Koa from 'koa';
import type Router from '@koa/router';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ConfigError } from '../../../core/config.js';
import { processRegistry } from '../../../core/metrics.js';
import type { Services } from '../../../core/services.js';
import { operatorAuth } from '../admin/dashboard.js';

export const METRICS_PATH = '/metrics';

/** Writes a client waits on until they are durably queued (the acknowledgement). */
const WRITE_ROUTES = new Set([
  'POST /v1/memories',
  'PATCH /v1/memories/:id',
  'DELETE /v1/memories/:id',
  'POST /v1/batch',
  'POST /v1/facts',
  'PATCH /v1/facts/:id',
  'POST /v1/facts/:id/forget',
  'DELETE /v1/users/:end_user/memories',
]);

/**
 * HTTP, queue and index metrics of one app, served with the process's own at
 * `/metrics`. Routes are labelled by their template (`/v1/memories/:id`), so
 * no id, user or content ever becomes a label value.
 */
export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;
  private readonly writeAck: Histogram<'operation'>;

  constructor(svc: Services) {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'engram_http_requests_total', help: 'HTTP requests', labelNames: ['method', 'route', 'status'], registers });
    this.duration = new Histogram({
      name: 'engram_http_request_duration_seconds',
      help: 'HTTP request duration until the response is written',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.writeAck = new Histogram({
      name: 'engram_write_ack_seconds',
      help: 'Time until an accepted write is acknowledged (stored and durably queued)',
      labelNames: ['operation'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    });
    new Gauge({
      name: 'engram_queue_jobs',
      help: 'Write pipeline jobs by stage and state (BullMQ: per stage queue; embedded: stage "pipeline")',
      labelNames: ['stage', 'state'],
      registers,
      async collect() {
        this.reset();
        const counts = await svc.queue.counts().catch(() => ({}) as Record<string, number>);
        for (const [key, n] of Object.entries(counts)) {
          const [stage, state] = key.includes(':') ? key.split(':') : ['pipeline', key];
          this.set({ stage, state }, n);
        }
      },
    });
    new Gauge({
      name: 'engram_queue_backlog',
      help: 'Write jobs not finished yet: waiting, delayed, active (or pending and running)',
      registers,
      async collect() {
        const counts = await svc.queue.counts().catch(() => ({}) as Record<string, number>);
        const open = ['waiting', 'active', 'delayed', 'waiting-children', 'pending', 'running'];
        this.set(Object.entries(counts).reduce((sum, [key, n]) => (open.includes(key.split(':').pop()!) ? sum + n : sum), 0));
      },
    });
    new Gauge({
      name: 'engram_vector_index_size',
      help: 'Vectors in the vector index, all workspaces',
      labelNames: ['backend'],
      registers,
      async collect() {
        const size = await svc.vectors.size().catch(() => null);
        if (size !== null) this.set({ backend: svc.vectors.kind }, size);
      },
    });
  }

  /** Outermost middleware: sees the final status after error handling. */
  middleware(routers: Router<any>[]): Koa.Middleware {
    // The route template of a request, even one refused before its route ran (401, 429).
    const routeOf = (path: string, method: string): string => {
      for (const router of routers) {
        const layer = router.match(path, method).pathAndMethod.findLast((l) => l.methods.length > 0);
        if (layer) return String(layer.path);
      }
      return 'unmatched';
    };
    return async (ctx, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const labels = { method: ctx.method, route: routeOf(ctx.path, ctx.method), status: String(ctx.status) };
        const seconds = (performance.now() - started) / 1000;
        this.requests.inc(labels);
        this.duration.observe(labels, seconds);
        const operation = `${labels.method} ${labels.route}`;
        if (ctx.status < 300 && WRITE_ROUTES.has(operation)) this.writeAck.observe({ operation }, seconds);
      }
    };
  }

  async render(): Promise<{ type: string; body: string }> {
    const merged = Registry.merge([processRegistry, this.registry]);
    return { type: merged.contentType, body: await merged.metrics() };
  }
}

/** Mounts `/metrics` as configured by METRICS; returns the collector, or null when off. */
export function mountMetrics(app: Koa<any>, svc: Services, routers: Router<any>[]): AppMetrics | null {
  if (svc.config.METRICS === 'off') return null;
  const metrics = new AppMetrics(svc);
  let guard: Koa.Middleware = (_ctx, next) => next();
  if (svc.config.METRICS === 'operator') {
    if (!svc.config.ADMIN_CREDENTIALS) throw new ConfigError('METRICS=operator needs ADMIN_CREDENTIALS (user:password)');
    guard = operatorAuth(svc.config.ADMIN_CREDENTIALS);
  }
  app.use(metrics.middleware(routers));
  app.use(async (ctx, next) => {
    if (ctx.path !== METRICS_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    await guard(ctx, async () => {
      const { type, body } = await metrics.render();
      ctx.set('Content-Type', type);
      ctx.body = body;
    });
  });
  return metrics;
}
