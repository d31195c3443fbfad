import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.js';
import { createKey, type CreatedKey } from '../../core/commands/keys.js';
import { createLogger, type Logger } from '../../core/logger.js';
import { startServer, type RunningServer } from '../../api/server.js';
import type { Plan, Scope } from '../../storage/types.js';

/** GloVe's binary cache is built once per machine and shared by every test server. */
export const SHARED_CACHE_DIR = join(tmpdir(), 'engram-test-cache');

export interface TestServer extends RunningServer {
  dataDir: string;
  key: string;
  keyFor(input: { workspace: string; plan?: Plan; scopes?: Scope[]; agentId?: string | null }): Promise<CreatedKey>;
  api: (key?: string | null) => ApiClient;
  /** Waits until no memory in the key's workspace is processing. */
  settle(key?: string, timeoutMs?: number): Promise<void>;
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

export async function startTestServer(env: Record<string, string> = {}, options: { runWorkers?: boolean; dataDir?: string; logger?: Logger } = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'engram-test-'));
  const config = loadConfig({
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
  });
  const running = await startServer(config, { logger: options.logger ?? createLogger('silent'), runWorkers: options.runWorkers });
  const keyFor: TestServer['keyFor'] = (input) =>
    createKey(running.services.store, { workspace: input.workspace, plan: input.plan ?? 'scale', scopes: input.scopes, agentId: input.agentId ?? null });
  const { key } = await keyFor({ workspace: 'test' });
  const api = (k: string | null = key) => new ApiClient(running.url, k);
  return {
    ...running,
    dataDir,
    key,
    keyFor,
    api,
    async settle(k = key, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await api(k).get('/v1/events?status=processing&limit=1');
        if (res.status === 200 && res.body.processing === 0) return;
        if (Date.now() > deadline) throw new Error(`writes still processing after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      await running.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
