import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The thread's program. Plain JavaScript, so it starts the same from sources (tsx, vitest) and
 * from the build. It keeps one prepared statement per SQL text, as the main connection does.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true, timeout: 10000 });
const statements = new Map();
parentPort.on('message', ({ id, sql, params }) => {
  try {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= 200) statements.delete(statements.keys().next().value);
      statements.set(sql, (statement = db.prepare(sql)));
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
`;

type Response = { id: number; rows: unknown[] } | { id: number; error: string };

/**
 * A worker thread with its own read-only connection to an embedded database file, for a read
 * that may run while this thread does other work (the keyword side of context runs there during
 * the vector scan). It reads committed data only, which every write of this process already is
 * when its call returns.
 */
export class ReadThread {
  private readonly pending = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private stopped: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (response: Response) => this.settle(response));
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`read thread exited (code ${code})`)));
    // An idle thread never keeps the process alive; a read in flight does (see all).
    worker.unref();
  }

  static start(filename: string): ReadThread {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    return new ReadThread(new Worker(PROGRAM, { eval: true, workerData: { filename, driver } }));
  }

  /** False once the thread has failed or been closed: the caller then reads on its own connection. */
  get running(): boolean {
    return this.stopped === null;
  }

  all(sql: string, params: unknown[]): Promise<unknown[]> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, sql, params });
    });
  }

  private settle(response: Response): void {
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    if (this.pending.size === 0) this.worker.unref();
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve(response.rows);
  }

  private stop(error: Error): void {
    this.stopped ??= error;
    for (const { reject } of this.pending.values()) reject(this.stopped);
    this.pending.clear();
  }

  async close(): Promise<void> {
    this.stop(new Error('read thread closed'));
    await this.worker.terminate();
  }
}
