import { defineConfig } from 'vitest/config';

/**
 * `npm run test:backends`: the suites that need the production servers, against real ones started by
 * `npm run backends:up` (test/support/backends-global-setup.ts starts them when they are not running).
 */
export default defineConfig({
  test: {
    include: ['storage/mongo/**/*.test.ts', 'storage/elasticsearch/**/*.test.ts', 'test/backends/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // The end-to-end files each run two APIs and two workers on a 2-core machine: one file at a time.
    fileParallelism: false,
    globalSetup: ['test/support/backends-global-setup.ts'],
  },
});
