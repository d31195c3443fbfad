import { ConfigError, type Config } from '../core/config.js';
import { createLogger, type Logger } from '../core/logger.js';
import { UsageLimits } from '../core/limits.js';
import { connectRedis, type Services } from '../core/services.js';
import { SqliteStore } from '../storage/sqlite/store.js';
import { EmbeddedVectorIndex } from '../storage/vector/embedded.js';
import type { Store } from '../storage/types.js';
import type { VectorIndex } from '../storage/vector/types.js';
import type { Embedder } from '../pipeline/types.js';
import { createEmbedder } from '../pipeline/embedding/index.js';
import { createPipelineDeps, loadExtractors } from '../core/pipeline-deps.js';
import { contextReranker } from '../core/reranking.js';
import { seedPrebuiltCaches } from '../core/prebuilt-cache.js';
import { EmbeddedQueue, defaultPipelineThreads } from '../workers/embedded/runner.js';
import { WriteOutcomes } from '../workers/outcomes.js';
import { ExtractionPool } from '../workers/threads/extraction-pool.js';
import type { WriteQueue } from '../core/write-queue.js';
import { checkEmbedderMatchesStore, resolveEmbedderChoice } from '../core/embedder-guard.js';

export interface ServiceOptions {
  /** Override the logger (tests silence it). */
  logger?: Logger;
  /** Start pipeline workers in this process (default: config.RUN_WORKERS). */
  runWorkers?: boolean;
}

/**
 * How long an operation waits for an unreachable MongoDB before it fails (the driver's default is 30 s): a request
 * then gets its 503 in seconds, and the driver keeps looking for the server, so service resumes once it is back.
 */
const MONGODB_SELECTION_TIMEOUT_MS = 3_000;

/** While the counters are down every request would log it: once per this long is enough. */
const COUNTERS_DOWN_LOG_EVERY_MS = 10_000;

function atMostEvery<T>(intervalMs: number, action: (value: T) => void): (value: T) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (value) => {
    if (Date.now() - last < intervalMs) return;
    last = Date.now();
    action(value);
  };
}

/** The store the configuration names: MongoDB when MONGODB_URL is set, else the embedded SQLite store. */
export async function openStore(config: Config): Promise<Store> {
  // Server backends load only when configured: the embedded default starts without their modules.
  if (config.MONGODB_URL) {
    const { MongoStore } = await import('../storage/mongo/store.js');
    return MongoStore.open(config.MONGODB_URL, config.MONGODB_DB, { clientOptions: { serverSelectionTimeoutMS: MONGODB_SELECTION_TIMEOUT_MS } });
  }
  return SqliteStore.open(config.DATA_DIR);
}

/** Elasticsearch when ELASTICSEARCH_URL is set, else the embedded index (exact, or a graph for large workspaces). */
export async function openVectorIndex(config: Config, store: Store, dimensions: number): Promise<VectorIndex> {
  if (config.ELASTICSEARCH_URL) {
    const { ElasticsearchVectorIndex } = await import('../storage/elasticsearch/index.js');
    return ElasticsearchVectorIndex.open(config.ELASTICSEARCH_URL, { dimensions, index: config.ELASTICSEARCH_INDEX });
  }
  if (!(store instanceof SqliteStore)) throw new ConfigError('ELASTICSEARCH_URL: required with MONGODB_URL');
  return EmbeddedVectorIndex.open(store.db, { graphMinRows: config.VECTOR_GRAPH_MIN_ROWS });
}

/**
 * Store, embedder and vector index together (the admin CLI's re-embed needs all three), and the configuration with
 * EMBEDDER=auto resolved against the store (`reembedding`: for the re-embed command, which moves a store to `model`).
 */
export async function openStorage(
  requested: Config,
  options: { reembedding?: boolean } = {},
): Promise<{ config: Config; store: Store; vectors: VectorIndex; embedder: Embedder }> {
  const store = await openStore(requested);
  const config = { ...requested, EMBEDDER: await resolveEmbedderChoice(store, requested.EMBEDDER, options.reembedding) };
  await seedPrebuiltCaches(config);
  const embedder = await createEmbedder(config);
  return { config, store, embedder, vectors: await openVectorIndex(config, store, embedder.dimensions) };
}

/** Builds every backend the configuration names; the composition root shared by the API and worker entry points. */
export async function createServices(requested: Config, options: ServiceOptions = {}): Promise<Services> {
  const logger = options.logger ?? createLogger(requested.LOG_LEVEL);
  const { config, store, vectors, embedder } = await openStorage(requested);
  if (requested.EMBEDDER === 'auto' && config.EMBEDDER === 'glove') {
    logger.warn('this store was embedded with glove, so EMBEDDER=auto keeps glove; `npm run --silent admin -- reembed` moves it to the more accurate model');
  }
  const sqlite = store instanceof SqliteStore ? store : null;
  const redis = config.REDIS_URL ? connectRedis(config.REDIS_URL) : null;
  if (!redis && !sqlite) throw new ConfigError('REDIS_URL: required with MONGODB_URL (queues, rate limits and quotas live in Redis)');
  await checkEmbedderMatchesStore(store, embedder);
  // Stages run here when this process runs BullMQ workers or the embedded runner without threads;
  // otherwise (API-only, or embedded with pipeline threads) the extractors load on first use, if ever.
  const runsStages = (options.runWorkers ?? config.RUN_WORKERS) && (redis !== null || config.PIPELINE_THREADS === 0);
  // With EXTRACTION_THREADS, a BullMQ worker process extracts in threads of its own, off the thread that drives the queues.
  const extractionThreads = runsStages && redis ? config.EXTRACTION_THREADS : 0;
  const extractionPool = extractionThreads > 0 ? new ExtractionPool(config, extractionThreads) : null;
  await extractionPool?.ready();
  const extractors = extractionPool
    ? { entityExtractor: extractionPool, factExtractor: extractionPool }
    : runsStages
      ? await loadExtractors(config)
      : undefined;
  const pipeline = createPipelineDeps(config, store, vectors, embedder, extractors);
  const bullmq = redis ? await import('../workers/bullmq/queue.js') : null;
  const queue: WriteQueue = bullmq && redis
    ? new bullmq.BullMqQueue(redis, { prefix: config.QUEUE_PREFIX, deps: pipeline, outcomes: new WriteOutcomes(store, logger), logger: logger.child({ component: 'bullmq' }) }, {
        attempts: config.JOB_ATTEMPTS,
        concurrency: bullmq.parseStageConcurrency(config.STAGE_CONCURRENCY),
        lockDurationMs: config.JOB_LOCK_MS,
        chunkSize: config.WRITE_CHUNK_SIZE,
      })
    : new EmbeddedQueue(sqlite!, pipeline, logger.child({ component: 'runner' }), {
        threads: config.PIPELINE_THREADS ?? defaultPipelineThreads(),
        config,
        attempts: config.JOB_ATTEMPTS,
      });
  const limits = new UsageLimits(
    redis ? { kind: 'redis', client: redis } : { kind: 'sqlite', db: sqlite!.db },
    config.RATE_LIMIT_PER_SECOND,
    atMostEvery(COUNTERS_DOWN_LOG_EVERY_MS, (error) => logger.warn({ err: error }, 'rate limit and quota counters unavailable; requests let through uncounted')),
  );

  const services: Services = {
    config,
    logger,
    store,
    vectors,
    queue,
    limits,
    pipeline,
    reranker: contextReranker(config, logger),
    redis,
    async close() {
      await queue.close();
      await extractionPool?.close();
      await vectors.close();
      redis?.disconnect();
      await store.close();
    },
  };
  if (options.runWorkers ?? config.RUN_WORKERS) await queue.startWorkers();
  return services;
}
