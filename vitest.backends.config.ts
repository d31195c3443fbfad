import { defineConfig } from 'vitest/config';

/**
 * `npm run test:backends`, against real servers started by `npm run backends:up`
 * (test/support/backends-global-setup.ts starts them when they are not running):
 * - "contract": the store and vector-index contracts on FerretDB and Elasticsearch, the HTTP contract suite
 *   and the published Python SDK with every test server in production mode (ENGRAM_TEST_MODE=production:
 *   test/support/server.ts gives each server its own MongoDB database, Elasticsearch index and queue prefix,
 *   and runs its pipeline in an `npm run worker` process), the embedded/production parity test and the
 *   two-APIs-two-workers end-to-end file. Three files at a time, each on its own data: the end-to-end file's
 *   200-item batch keeps FerretDB busy for about a minute while two lanes take the other files.
 * - "faults" (after them, one file at a time: they time outages and shutdowns): test/backends/faults/, Redis and
 *   MongoDB servers of their own killed and restarted, SIGTERM to API and worker processes, the embedded mode
 *   on a full disk.
 * - "outage" (after all of them, alone): elasticsearch-outage.test.ts stops and restarts the Elasticsearch node
 *   every other file shares.
 * - "soak" (last, alone): soak.test.ts runs `npm run soak -- --minutes 2` (test/soak/) on servers of its own.
 */
export default defineConfig({
  test: {
    env: { ENGRAM_TEST_MODE: 'production' },
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    globalSetup: ['test/support/backends-global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'contract',
          include: [
            'storage/mongo/**/*.test.ts',
            'storage/elasticsearch/**/*.test.ts',
            'api/**/*.test.ts',
            'test/clients/**/*.test.ts',
            'test/backends/parity.test.ts',
            'test/backends/search-limits.test.ts',
            'test/backends/production.test.ts',
            'test/backends/migration.test.ts',
          ],
          exclude: [
            '**/node_modules/**',
            // About the embedded mode itself, not the HTTP contract:
            // the admin CLI and first start on an embedded data folder (in production keys are made with the same
            // CLI against MongoDB: test/backends/production.test.ts);
            'api/admin/cli.test.ts',
            // the queue dashboard being absent without Redis (production always has Redis; dashboard.test.ts runs).
            'api/routes/admin/dashboard.embedded.test.ts',
            // Starts no server (pure request-schema properties): the same in both modes, run by `npm test`.
            'api/validation.property.test.ts',
          ],
          maxWorkers: 3,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'faults',
          include: ['test/backends/faults/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'outage',
          include: ['test/backends/elasticsearch-outage.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'soak',
          include: ['test/backends/soak.test.ts'],
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
