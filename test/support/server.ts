import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.js';
import { createKey, type CreatedKey } from '../../core/commands/keys.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { startServer, type RunningServer } from '../../api/server.js';
import type { Plan, Scope } from '../../storage/types.js';
import { dropProductionData, isProductionRun, productionEnv, productionStoredText } from './backends.js';
import { SHARED_CACHE_DIR } from './cache-dir.js';
import { startReadyWorker, stopProcess, type OutputProcess } from './processes.js';
import { waitFor } from './wait.js';

export { SHARED_CACHE_DIR };

export interface TestServer extends RunningServer {
  dataDir: string;
  /** The configuration as environment variables: what another API or worker process needs to join this deployment. */
  env: Record<string, string>;
  /** 'embedded' under `npm test`; 'production' (MongoDB, Elasticsearch, BullMQ workers in their own processes) under `npm run test:backends`. */
  mode: 'embedded' | 'production';
  key: string;
  keyFor(input: { workspace: string; plan?: Plan; scopes?: Scope[]; agentId?: string | null }): Promise<CreatedKey>;
  api: (key?: string | null) => ApiClient;
  /** Waits until no memory in the key's workspace is processing. */
  settle(key?: string, timeoutMs?: number): Promise<void>;
  /** Where the pipeline's stage metrics are served: the API's /metrics, or (production) the worker process's; null when off. */
  pipelineMetricsUrl(): string | null;
  /** Starts the pipeline workers of a server started with `runWorkers: false`. */
  startWorkers(): Promise<void>;
  /** Everything the deployment stored, as text: the files of DATA_DIR, or the MongoDB database, index and queue keys. */
  storedText(): Promise<string>;
}

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly key: string | null,
  ) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = { method, headers: { Accept: 'application/json', ...headers } };
    if (this.key !== null) (init.headers as Record<string, string>).Authorization = `Bearer ${this.key}`;
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // leave as text
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body ?? {});
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);
}

/**
 * A server for HTTP tests. Under `npm test` it is the embedded mode in this process. Under `npm run test:backends`
 * it is the production mode (`options.mode` chooses explicitly): the API in this process (RUN_WORKERS=false) on its own MongoDB database,
 * Elasticsearch index and queue prefix, and the pipeline in an `npm run worker` process.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { runWorkers?: boolean; dataDir?: string; logger?: Logger; mode?: TestServer['mode'] } = {},
): Promise<TestServer> {
  const production = (options.mode ?? (isProductionRun() ? 'production' : 'embedded')) === 'production';
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'engram-test-'));
  const settings: Record<string, string> = {
    ...(production ? productionEnv('t') : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CACHE_DIR: SHARED_CACHE_DIR,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '10000',
    // One pipeline thread per test server: the stages still run off the API thread, and parallel test files do not oversubscribe the cores.
    PIPELINE_THREADS: '1',
    // Test servers share one redis-server; each gets its own queues.
    QUEUE_PREFIX: `t${process.pid}-${Math.random().toString(36).slice(2, 8)}`,
    ...env,
  };
  const config = loadConfig(settings);
  const runWorkers = options.runWorkers ?? true;
  const running = await startServer(config, { logger: options.logger ?? createLogger('silent'), runWorkers: production ? false : runWorkers });
  const workers: OutputProcess[] = [];
  const startWorkers = async () => {
    if (production) workers.push(await startReadyWorker({ ...settings, WORKER_METRICS_PORT: '0' }));
    else await running.services.queue.startWorkers();
  };
  try {
    if (production && runWorkers) await startWorkers();
  } catch (error) {
    await running.close();
    throw error;
  }
  const keyFor: TestServer['keyFor'] = (input) =>
    createKey(running.services.store, { workspace: input.workspace, plan: input.plan ?? 'scale', scopes: input.scopes, agentId: input.agentId ?? null });
  const { key } = await keyFor({ workspace: 'test' });
  const api = (k: string | null = key) => new ApiClient(running.url, k);
  return {
    ...running,
    dataDir,
    env: settings,
    mode: production ? 'production' : 'embedded',
    key,
    keyFor,
    api,
    startWorkers,
    pipelineMetricsUrl: () => {
      if (!production) return config.METRICS === 'off' ? null : `${running.url}/metrics`;
      return /"metrics":"([^"]+)"/.exec(workers[0]?.output() ?? '')?.[1] ?? null;
    },
    // FerretDB serialises updates (docs/operations.md, the FerretDB differences): the production pipeline is slower.
    settle: (k = key, timeoutMs = production ? 120_000 : 20_000) => settled(api(k), timeoutMs),
    storedText: () => (production ? productionStoredText(settings) : Promise.resolve(filesText(dataDir))),
    async close() {
      await Promise.all(workers.map((w) => stopProcess(w)));
      await running.close();
      if (production) await dropProductionData(settings).catch(() => undefined);
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until no memory in the client's workspace is processing. */
export async function settled(api: ApiClient, timeoutMs: number, intervalMs = 20): Promise<void> {
  await waitFor(async () => {
    const res = await api.get('/v1/events?status=processing&limit=1');
    return res.status === 200 && res.body.processing === 0 ? true : undefined;
  }, timeoutMs, intervalMs);
}

/** The bytes of every file under `dir`, as one latin1 text. */
function filesText(dir: string): string {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .map((path) => (statSync(path).isDirectory() ? filesText(path) : readFileSync(path).toString('latin1')))
    .join('\n');
}
