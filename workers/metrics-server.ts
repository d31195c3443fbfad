import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { processRegistry } from '../core/metrics.js';
import { isOperator } from '../core/operator-auth.js';

export interface WorkerMetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `GET /metrics` of an `npm run worker` process: its stage timings and failures and Node's own metrics.
 * Stage metrics are per process, so the API's /metrics cannot show what the workers ran.
 * With `credentials` (METRICS=operator) it asks for the operator's HTTP basic credential.
 */
export async function serveWorkerMetrics(options: { port: number; host: string; credentials: string | null }): Promise<WorkerMetricsServer> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'not_found', message: 'Only GET /metrics is served here' }));
      return;
    }
    if (options.credentials && !isOperator(req.headers.authorization, options.credentials)) {
      res
        .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="engram metrics"' })
        .end(JSON.stringify({ code: 'invalid_credentials', message: 'Operator credentials required' }));
      return;
    }
    try {
      const body = await processRegistry.metrics();
      res.writeHead(200, { 'content-type': processRegistry.contentType }).end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'internal_error', message: 'metrics unavailable' }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host}:${port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
