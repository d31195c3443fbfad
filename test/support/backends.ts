import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SHARED_CACHE_DIR } from './server.js';

const ROOT = join(import.meta.dirname, '..', '..');

export interface BackendUrls {
  REDIS_URL: string;
  MONGODB_URL: string;
  ELASTICSEARCH_URL: string;
}

/** The servers of `npm run test:backends` (set by backends-global-setup.ts); fails loudly without them. */
export function backendUrls(): BackendUrls {
  const { REDIS_URL, MONGODB_URL, ELASTICSEARCH_URL } = process.env;
  if (!REDIS_URL || !MONGODB_URL || !ELASTICSEARCH_URL) throw new Error('run these tests with `npm run test:backends` (it starts the servers)');
  return { REDIS_URL, MONGODB_URL, ELASTICSEARCH_URL };
}

/** Production-mode environment for API and worker processes, isolated by database, index and queue prefix. */
export function productionEnv(name: string, extra: Record<string, string> = {}): Record<string, string> {
  const tag = `${name}-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`;
  return {
    ...backendUrls(),
    MONGODB_DB: `engram_${tag.replace(/-/g, '_')}`,
    ELASTICSEARCH_INDEX: `engram-${tag}`.toLowerCase(),
    QUEUE_PREFIX: `e2e-${tag}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'engram-prod-')),
    CACHE_DIR: SHARED_CACHE_DIR,
    RUN_WORKERS: 'false',
    ...extra,
  };
}

/** `npm run --silent admin -- keys create …` against the configured MongoDB: the documented way to make a key. */
export function adminCreateKey(env: Record<string, string>, workspace: string, plan: string): { key: string; key_id: string; workspace: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'admin', 'cli.ts'), 'keys', 'create', '--workspace', workspace, '--plan', plan], {
    cwd: ROOT,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`admin keys create failed: ${result.stderr}`);
  const lines = result.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]);
}
