import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { SHARED_CACHE_DIR } from './cache-dir.js';
import { redisDump } from './redis.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Test-side clients fail instead of retrying: a test may have pointed its server at a stopped Redis. */
const ONE_TRY = { maxRetriesPerRequest: 1, connectTimeout: 2_000, retryStrategy: () => null };

export interface BackendUrls {
  REDIS_URL: string;
  MONGODB_URL: string;
  ELASTICSEARCH_URL: string;
}

/**
 * True in `npm run test:backends` (vitest.backends.config.ts sets ENGRAM_TEST_MODE): test servers then run in
 * production mode against the servers of `npm run backends:up`.
 */
export function isProductionRun(): boolean {
  return process.env.ENGRAM_TEST_MODE === 'production';
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

/** Every MongoDB document, Elasticsearch document and Redis queue entry of one production deployment, as text. */
export async function productionStoredText(env: Record<string, string>): Promise<string> {
  const parts: string[] = [];
  const mongo = await MongoClient.connect(env.MONGODB_URL, { serverSelectionTimeoutMS: 5_000 });
  try {
    const db = mongo.db(env.MONGODB_DB);
    for (const { name } of await db.listCollections().toArray()) {
      for (const doc of await db.collection(name).find().toArray()) parts.push(JSON.stringify(doc));
    }
  } finally {
    await mongo.close();
  }
  const es = new ElasticsearchClient({ node: env.ELASTICSEARCH_URL });
  try {
    if (await es.indices.exists({ index: env.ELASTICSEARCH_INDEX })) {
      await es.indices.refresh({ index: env.ELASTICSEARCH_INDEX });
      const hits = await es.search({ index: env.ELASTICSEARCH_INDEX, size: 10_000, query: { match_all: {} } });
      parts.push(...hits.hits.hits.map((hit) => JSON.stringify(hit)));
    }
  } finally {
    await es.close();
  }
  const redis = new Redis(env.REDIS_URL, ONE_TRY);
  try {
    parts.push(await redisDump(redis, `${env.QUEUE_PREFIX}:*`));
  } finally {
    redis.disconnect();
  }
  return parts.join('\n');
}

/** Drops what one production deployment stored: its database, its index and its queue keys. */
export async function dropProductionData(env: Record<string, string>): Promise<void> {
  const mongo = await MongoClient.connect(env.MONGODB_URL, { serverSelectionTimeoutMS: 5_000 });
  try {
    await mongo.db(env.MONGODB_DB).dropDatabase();
  } finally {
    await mongo.close();
  }
  const es = new ElasticsearchClient({ node: env.ELASTICSEARCH_URL });
  try {
    await es.indices.delete({ index: env.ELASTICSEARCH_INDEX, ignore_unavailable: true });
  } finally {
    await es.close();
  }
  const redis = new Redis(env.REDIS_URL, ONE_TRY);
  try {
    const keys = await redis.keys(`${env.QUEUE_PREFIX}:*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
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
