import { defineConfig } from 'vitest/config';

/**
 * `npm run test:backends`: the suites that need the production servers, against real ones started by
 * `npm run backends:up` (test/support/backends-global-setup.ts starts them when they are not running), and the
 * HTTP contract suite and the published Python SDK again, with every test server in production mode
 * (ENGRAM_TEST_MODE=production: test/support/server.ts gives each server its own MongoDB database,
 * Elasticsearch index and queue prefix, and runs its pipeline in an `npm run worker` process).
 */
export default defineConfig({
  test: {
    include: [
      'storage/mongo/**/*.test.ts',
      'storage/elasticsearch/**/*.test.ts',
      'test/backends/**/*.test.ts',
      // The HTTP contract and the published SDK, in production mode.
      'api/**/*.test.ts',
      'test/clients/**/*.test.ts',
    ],
    exclude: [
      '**/node_modules/**',
      // About the embedded mode itself, not the HTTP contract:
      // the admin CLI and first start on an embedded data folder (production keys are made with the CLI in test/backends/production.test.ts);
      'api/admin/cli.test.ts',
      // the dashboard being absent without Redis (production always has Redis; the dashboard itself runs in dashboard.test.ts).
      'api/routes/admin/dashboard.embedded.test.ts',
      // Start no server: pure functions, the same under both modes.
      'api/validation.property.test.ts',
    ],
    env: { ENGRAM_TEST_MODE: 'production' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The end-to-end files each run two APIs and two workers on a 2-core machine: one file at a time.
    fileParallelism: false,
    globalSetup: ['test/support/backends-global-setup.ts'],
  },
});
