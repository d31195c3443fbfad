import { Redis } from 'ioredis';
import type { Config } from './config.js';
import type { Logger } from './logger.js';
import { UsageLimits } from './limits.js';
import type { Store } from '../storage/types.js';
import type { VectorIndex } from '../storage/vector/types.js';
import type { WriteQueue } from './write-queue.js';
import type { PipelineDeps } from '../pipeline/write/stages.js';
import type { Reranker } from '../pipeline/retrieval/reranker.js';

/** Everything a command needs; built once per process by `createServices`. */
export interface Services {
  config: Config;
  logger: Logger;
  store: Store;
  vectors: VectorIndex;
  queue: WriteQueue;
  limits: UsageLimits;
  pipeline: PipelineDeps;
  /** Orders context candidates; absent when RERANKER=off. */
  reranker?: Reranker;
  redis: Redis | null;
  close(): Promise<void>;
}

/**
 * The API-side connection (queue producers, rate limits, quotas) fails fast while
 * Redis is down, so requests get a 503 instead of hanging: a command waits for at most
 * three reconnection attempts, at most half a second apart. BullMQ workers duplicate it
 * with `maxRetriesPerRequest: null`, as blocking commands need.
 */
export function connectRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5_000, retryStrategy: (attempt) => Math.min(attempt * 50, 500) });
}
