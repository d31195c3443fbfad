import { down, running, up } from '../../backends/services.js';

/**
 * Makes the production servers available to `npm run test:backends`: reuses what `npm run backends:up` started,
 * or starts them (and then stops them again at the end). Their URLs reach the test files through the
 * environment; each test file uses its own database, index and queue prefix.
 */
let startedHere = false;

export async function setup() {
  let urls = await running();
  if (!urls) {
    urls = await up();
    startedHere = true;
  }
  process.env.MONGODB_URL = urls.MONGODB_URL;
  process.env.ELASTICSEARCH_URL = urls.ELASTICSEARCH_URL;
  process.env.REDIS_URL = urls.REDIS_URL;
  process.env.TEST_REDIS_URL = urls.REDIS_URL;
}

export async function teardown() {
  if (startedHere && !process.env.ENGRAM_BACKENDS_KEEP) await down();
}
