import { z } from 'zod';
import { onnxModelFolderProblem } from '../pipeline/embedding/onnx-model-folder.js';

const optionalUrl = z.string().trim().min(1).url().optional();
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const boolFlag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Derived, rebuildable files such as the GloVe binary cache; defaults to <DATA_DIR>/cache. */
  CACHE_DIR: z.string().min(1).optional(),
  REDIS_URL: optionalUrl,
  MONGODB_URL: optionalUrl,
  MONGODB_DB: z.string().min(1).default('engram'),
  ELASTICSEARCH_URL: optionalUrl,
  ELASTICSEARCH_INDEX: z.string().min(1).default('engram-memories'),
  RATE_LIMIT_PER_SECOND: positiveInt(50),
  REGION: z.string().min(1).default('eu-local'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Run pipeline workers inside the API process (always true for the embedded queue). */
  RUN_WORKERS: boolFlag(true),
  /** Operator credential for /admin/queues, as user:password (HTTP basic). Dashboard is off when unset. */
  ADMIN_CREDENTIALS: z
    .string()
    .regex(/^[^:]+:.+$/, 'must be user:password')
    .optional(),
  /** `/metrics`: `open` (like most exporters), `operator` (HTTP basic with ADMIN_CREDENTIALS) or `off`. */
  METRICS: z.enum(['open', 'operator', 'off']).default('open'),
  /**
   * `npm run worker` serves its own /metrics (stage timings, Node's metrics) on this port when set (0: any free
   * port, printed at start), under the same METRICS setting; the API's /metrics only sees its own process.
   */
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Per-stage worker concurrency, e.g. "embed=4,commit=1" */
  STAGE_CONCURRENCY: z.string().default(''),
  JOB_ATTEMPTS: positiveInt(5),
  /**
   * Embedded mode: worker threads running the pipeline stages, so the API thread only validates,
   * enqueues and serves reads. Default: one per core; 0 runs the stages on the API thread.
   */
  PIPELINE_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /**
   * Embedded mode: the pipeline threads' nice value (Linux), so that requests get the cores first while an import
   * runs; 0 runs them at the API's priority.
   */
  PIPELINE_NICE: z.coerce.number().int().min(0).max(19).default(10),
  /**
   * BullMQ worker process: threads running entity and fact extraction. Default 0: extraction runs on
   * the thread that runs the queues (threads cost CPU per write: workers/threads/extraction-pool.ts).
   */
  EXTRACTION_THREADS: z.coerce.number().int().min(0).max(64).default(0),
  /** Redis key prefix of the BullMQ queues; separate deployments on one Redis use different prefixes. */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').default('engram'),
  /**
   * BullMQ job lock, renewed every half of it while a job runs: a killed worker's jobs are
   * picked up again within this plus a stalled-check interval (a quarter of it).
   */
  JOB_LOCK_MS: positiveInt(5_000),
  /**
   * BullMQ mode: a request's writes of one user scope share a flow, at most this many per flow (workers/bullmq/chunks.ts);
   * 1 gives every write a flow of its own. Set on the API processes, which build the flows.
   */
  WRITE_CHUNK_SIZE: z.coerce.number().int().min(1).max(500).default(50),
  /** On SIGTERM or SIGINT, how long requests in flight may take to finish before their connections are closed. */
  SHUTDOWN_GRACE_MS: positiveInt(25_000),

  /**
   * `auto`: `model` (the shipped conversation-tuned encoder joined to GloVe) for a new store; a store whose vectors
   * GloVe made, the default before `model`, keeps `glove` until re-embedded (core/embedder-guard.ts).
   */
  EMBEDDER: z.enum(['auto', 'model', 'glove', 'openai', 'onnx']).default('auto'),
  /** EMBEDDER=onnx: a folder with model.onnx and tokenizer.json (`npm run --silent models:onnx` fetches one). */
  ONNX_MODEL_DIR: z.string().min(1).optional(),
  /**
   * Embedded index: a workspace with this many vectors is searched workspace-wide through an HNSW graph (recall@10
   * about 0.95) instead of an exact scan; searches filtered to a user stay exact (docs/retrieval.md).
   */
  VECTOR_GRAPH_MIN_ROWS: positiveInt(50_000),
  EXTRACTOR: z.enum(['model', 'rules', 'openai']).default('model'),
  JUDGE: z.enum(['model', 'rules', 'openai']).default('rules'),
  /**
   * GET /v1/context: `model` orders the best fused candidates with the shipped cross-encoder before packing. Off by
   * default: on the LoCoMo development conversations it does not beat the fused order (training/retrieval/MODEL_CARD.md).
   */
  RERANKER: z.enum(['model', 'off']).default('off'),
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_API_KEY: z.string().optional(),
  EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  EMBEDDING_DIMENSIONS: z.coerce.number().int().positive().optional(),
  EXTRACTION_MODEL: z.string().min(1).default('gpt-4o-mini'),
  JUDGE_MODEL: z.string().min(1).default('gpt-4o-mini'),
}).superRefine((config, ctx) => {
  if (config.EMBEDDER !== 'onnx') return;
  const problem = config.ONNX_MODEL_DIR
    ? onnxModelFolderProblem(config.ONNX_MODEL_DIR)
    : 'required when EMBEDDER=onnx (a folder with model.onnx and tokenizer.json; `npm run --silent models:onnx` fetches one)';
  if (problem) ctx.addIssue({ code: 'custom', path: ['ONNX_MODEL_DIR'], message: problem });
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

/** Parses configuration from environment variables; a bad value names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
