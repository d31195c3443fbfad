import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The integrations in clients/ test against the client's source, so nothing needs building first.
  resolve: { alias: { '@engram/client': fileURLToPath(new URL('./clients/typescript/src/index.ts', import.meta.url)) } },
  test: {
    // test/backends needs the production servers: `npm run test:backends`.
    exclude: ['**/node_modules/**', 'test/backends/**'],
    include: ['test/**/*.test.ts', 'api/**/*.test.ts', 'pipeline/**/*.test.ts', 'workers/**/*.test.ts', 'storage/**/*.test.ts', 'clients/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one file at a time on two cores (cores - 1); most files wait on servers and child
    // processes, so two at a time halves the suite here (519 -> 281 s) without making its timings flaky.
    maxWorkers: 2,
    globalSetup: ['test/support/redis-global-setup.ts'],
  },
});
