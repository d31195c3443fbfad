import { ConfigError, loadConfig } from '../core/config.js';
import { EmbedderMismatchError } from '../core/embedder-guard.js';

/** `npm run worker`: pipeline workers only, scaled apart from the API (needs REDIS_URL). */
async function main() {
  const config = loadConfig();
  if (!config.REDIS_URL) throw new ConfigError('REDIS_URL: required for `npm run worker` (without Redis, `npm start` runs the workers in-process)');
  const servesMetrics = config.WORKER_METRICS_PORT !== undefined && config.METRICS !== 'off';
  if (servesMetrics && config.METRICS === 'operator' && !config.ADMIN_CREDENTIALS) throw new ConfigError('METRICS=operator needs ADMIN_CREDENTIALS (user:password)');
  const { createServices } = await import('../composition/bootstrap.js');
  const services = await createServices(config, { runWorkers: true });
  const metrics = servesMetrics
    ? await (await import('./metrics-server.js')).serveWorkerMetrics({
        port: config.WORKER_METRICS_PORT!,
        host: config.HOST,
        credentials: config.METRICS === 'operator' ? config.ADMIN_CREDENTIALS! : null,
      })
    : null;
  services.logger.info({ queue: services.queue.kind, pid: process.pid, metrics: metrics?.url }, 'engram worker started');
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Taking no new jobs, the workers finish the ones they hold; a job that cannot finish is handed back when its lock lapses.
    services.logger.info({ signal }, 'worker shutting down: finishing its jobs');
    try {
      await metrics?.close();
      await services.close();
    } catch (error) {
      services.logger.error({ err: error }, 'worker shutdown failed');
      process.exit(1);
    }
    services.logger.info('worker shut down');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  process.stderr.write(`${error instanceof ConfigError || error instanceof EmbedderMismatchError ? error.message : (error?.stack ?? error)}\n`);
  process.exit(error instanceof ConfigError || error instanceof EmbedderMismatchError ? 2 : 1);
});
