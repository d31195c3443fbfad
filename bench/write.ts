/**
 * Write-path benchmark: time for a 500-item POST /v1/batch to complete (all six
 * stages per item), on the embedded runner, and on BullMQ when REDIS_URL is set.
 *   npx tsx bench/write.ts            REDIS_URL=redis://127.0.0.1:6379 npx tsx bench/write.ts
 * Prints one JSON object on stdout.
 */
import { cpus, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../core/config.js';
import { createKey } from '../core/commands/keys.js';
import { createLogger } from '../core/logger.js';
import { startServer } from '../api/server.js';
import { memories as samples } from '../test/eval/retrieval/dataset.js';

const ITEMS = 500;
const CACHE_DIR = join(tmpdir(), 'engram-test-cache');

async function batchSeconds(env: Record<string, string>): Promise<{ seconds: number; itemsPerSecond: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-bench-write-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, CACHE_DIR, LOG_LEVEL: 'silent', QUEUE_PREFIX: `bench${process.pid}`, ...env });
  const server = await startServer(config, { logger: createLogger('silent') });
  try {
    const { key } = await createKey(server.services.store, { workspace: 'bench', plan: 'scale' });
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
    const memories = Array.from({ length: ITEMS }, (_, i) => ({ content: samples[i % samples.length].content, user_id: `user${i % 25}` }));
    const started = performance.now();
    const res = await fetch(`${server.url}/v1/batch`, { method: 'POST', headers, body: JSON.stringify({ memories }) });
    const batch = (await res.json()) as { id: string };
    for (;;) {
      const status = (await (await fetch(`${server.url}/v1/batch/${batch.id}`, { headers })).json()) as { status: string; failed: number };
      if (status.status === 'completed') {
        if (status.failed) throw new Error(`${status.failed} items failed`);
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    return { seconds: Math.round(seconds * 100) / 100, itemsPerSecond: Math.round(ITEMS / seconds) };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const result: Record<string, unknown> = {
  machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version },
  items: ITEMS,
  embedded: await batchSeconds({}),
};
if (process.env.REDIS_URL) result.bullmq = await batchSeconds({ REDIS_URL: process.env.REDIS_URL });
console.log(JSON.stringify(result));
