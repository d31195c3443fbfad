import { ConfigError, loadConfig } from '../core/config.js';
import { EmbedderMismatchError } from '../core/embedder-guard.js';

async function main() {
  // Configuration first: a bad value stops start-up before the server's modules load.
  const config = loadConfig();
  const [{ startServer }, { bootstrapDefaultKey }] = await Promise.all([import('./server.js'), import('../core/commands/keys.js')]);
  const running = await startServer(config);
  const { logger, store } = running.services;
  const created = await bootstrapDefaultKey(store);
  if (created) {
    // Printed once: only the hash is stored.
    process.stdout.write(
      `\nEngram created workspace "${created.workspace}" (${created.plan} plan) and an API key. It will not be shown again:\n\n  ${created.key}\n\n` +
        `Try: curl -H "Authorization: Bearer ${created.key}" ${running.url}/v1/ping\n\n`,
    );
  }
  logger.info({ url: running.url, dataDir: config.DATA_DIR, store: store.kind, queue: running.services.queue.kind }, 'engram listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    try {
      await running.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info('shut down');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof EmbedderMismatchError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
