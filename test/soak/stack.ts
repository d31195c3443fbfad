import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminCreateKey } from '../support/backends.js';
import { SHARED_CACHE_DIR } from '../support/cache-dir.js';
import { OwnBackend } from '../support/own-backend.js';
import { startApiProcess, startReadyWorker, stopProcess, type OutputProcess } from '../support/processes.js';

/**
 * The production deployment the soak runs against, all of it its own so that its faults touch nobody else:
 * Redis (append-only, fsync always), FerretDB and an Elasticsearch node, two API processes and two
 * `npm run worker` processes.
 */
export class SoakStack {
  readonly apis: { child: OutputProcess; url: string }[] = [];
  readonly workers: OutputProcess[] = [];
  /** Output of processes that were killed or replaced, kept for the logs. */
  private readonly retiredOutput: string[] = [];

  private constructor(
    readonly redis: OwnBackend,
    readonly mongodb: OwnBackend,
    readonly elasticsearch: OwnBackend,
    readonly env: Record<string, string>,
  ) {}

  static async start(): Promise<SoakStack> {
    const [redis, mongodb, elasticsearch] = await Promise.all([OwnBackend.start('redis'), OwnBackend.start('mongodb'), OwnBackend.start('elasticsearch')]);
    const env = {
      REDIS_URL: redis.url,
      MONGODB_URL: mongodb.url,
      ELASTICSEARCH_URL: elasticsearch.url,
      MONGODB_DB: 'engram_soak',
      ELASTICSEARCH_INDEX: 'engram-soak',
      QUEUE_PREFIX: 'soak',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'engram-soak-data-')),
      CACHE_DIR: SHARED_CACHE_DIR,
      RUN_WORKERS: 'false',
      // A killed worker's jobs come back within about 4 s; stages spend attempts while Elasticsearch is down
      // (docs/operations.md#faults), and 12 exponential attempts outlast the soak's outage and restart.
      JOB_LOCK_MS: '3000',
      JOB_ATTEMPTS: '12',
      // Nothing is in flight when the soak stops its API processes: no reason to wait the default 25 s.
      SHUTDOWN_GRACE_MS: '3000',
    };
    const stack = new SoakStack(redis, mongodb, elasticsearch, env);
    try {
      // The first API process creates the indexes and the Elasticsearch index; the others find them.
      stack.apis.push(await startApiProcess(env));
      stack.apis.push(await startApiProcess(env));
      for (const worker of await Promise.allSettled([startReadyWorker(env), startReadyWorker(env)])) {
        if (worker.status === 'rejected') throw worker.reason;
        stack.workers.push(worker.value);
      }
    } catch (error) {
      await stack.close();
      throw error;
    }
    return stack;
  }

  createKey(workspace: string): string {
    return adminCreateKey(this.env, workspace, 'scale').key;
  }

  /** kill -9 on the oldest worker (a crash: its jobs wait out their lock), then a replacement. */
  async crashWorker(): Promise<void> {
    const victim = this.workers.shift()!;
    await stopProcess(victim, 'SIGKILL');
    this.retiredOutput.push(victim.output());
    this.workers.push(await startReadyWorker(this.env));
  }

  /** Redis killed (SIGKILL) and started again on the same port and append-only file after `downMs`. */
  async restartRedis(downMs: number): Promise<void> {
    await this.redis.kill('SIGKILL');
    await sleep(downMs);
    await this.redis.restart();
  }

  /** Elasticsearch stopped (SIGTERM, as an orchestrator stops it) for `downMs`, then started on the same data. */
  async stopElasticsearch(downMs: number): Promise<void> {
    await this.elasticsearch.kill('SIGTERM');
    await sleep(downMs);
    await this.elasticsearch.restart();
  }

  /** Every process's output, one file each, for a failed run. */
  writeLogs(dir: string): void {
    const all = [...this.apis.map((a, i) => [`api-${i}`, a.child.output()]), ...this.workers.map((w, i) => [`worker-${i}`, w.output()]), ...this.retiredOutput.map((o, i) => [`killed-worker-${i}`, o])];
    for (const [name, output] of all) writeFileSync(join(dir, `${name}.log`), output);
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.map((w) => stopProcess(w)), ...this.apis.map((a) => stopProcess(a.child))]);
    await Promise.all([this.redis.close(), this.mongodb.close(), this.elasticsearch.close()]);
    rmSync(this.env.DATA_DIR, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
