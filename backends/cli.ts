import { ensureElasticsearch, ensureFerretDb, ensureRedis } from './install.js';
import { down, up } from './services.js';

/**
 * `npm run --silent backends:up`   installs on first use, starts Redis, FerretDB (MongoDB wire protocol) and
 *                                  Elasticsearch on free local ports, prints {"REDIS_URL","MONGODB_URL","ELASTICSEARCH_URL"}
 * `npm run --silent backends:down` stops the processes `up` started.
 * `npm run --silent backends:install` only installs them (what `up` would do first), starting nothing.
 * For development and tests only; progress goes to stderr, the JSON line is the last line on stdout.
 */
async function main() {
  const command = process.argv[2];
  if (command === 'up') {
    process.stdout.write(`${JSON.stringify(await up())}\n`);
  } else if (command === 'install') {
    const installed = { redis: ensureRedis(), mongodb: ensureFerretDb(), elasticsearch: ensureElasticsearch().java };
    process.stdout.write(`${JSON.stringify(installed)}\n`);
  } else if (command === 'down') {
    process.stdout.write(`${JSON.stringify({ stopped: await down() })}\n`);
  } else {
    process.stderr.write('usage: tsx backends/cli.ts up|down|install\n');
    process.exit(2);
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
