import { adminCreateKey, dropProductionData, productionEnv } from './backends.js';
import { startApiProcess, stopProcess, WorkerProcesses, type OutputProcess } from './processes.js';
import { ApiClient, settled } from './server.js';

/**
 * The production shape for test/backends: two API processes (RUN_WORKERS=false) and two `npm run worker`
 * processes on their own MongoDB database, Elasticsearch index and queue prefix.
 */
export class TwoByTwoDeployment {
  readonly env: Record<string, string>;
  readonly workers: WorkerProcesses;
  private readonly apis: { child: OutputProcess; url: string }[] = [];

  constructor(name: string, extra: Record<string, string> = {}) {
    this.env = productionEnv(name, extra);
    this.workers = new WorkerProcesses(() => this.env);
  }

  async start(): Promise<void> {
    // The first API process creates the indexes and the Elasticsearch index; the others find them.
    this.apis.push(await startApiProcess(this.env));
    this.apis.push(await startApiProcess(this.env));
    await Promise.all([this.workers.start(), this.workers.start()]);
  }

  /** A fresh workspace with its own key (rate limits are per key), made with the admin CLI against MongoDB; a client per API. */
  workspace(name: string, plan = 'scale'): { a: ApiClient; b: ApiClient; key: string } {
    const { key } = adminCreateKey(this.env, name, plan);
    return { key, a: new ApiClient(this.apis[0].url, key), b: new ApiClient(this.apis[1].url, key) };
  }

  /** Waits until nothing in the key's workspace is processing. */
  async settled(api: ApiClient, timeoutMs = 120_000): Promise<void> {
    await settled(api, timeoutMs, 250);
  }

  async close(): Promise<void> {
    await Promise.all([this.workers.stopAll(), ...this.apis.map((a) => stopProcess(a.child))]);
    await dropProductionData(this.env).catch(() => undefined);
  }
}
