import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Each request has a cell in a buffer shared with the thread, holding who runs it. Cells are
 * reused round-robin; a cell's value carries the request's round, so a message that arrives
 * after its cell was reused (the caller ran it long ago) finds no match and is skipped.
 */
const SLOTS = 1024;
const ROUNDS = 1 << 20;
const QUEUED = 0;
const TAKEN_BY_THREAD = 1;
const TAKEN_BY_CALLER = 2;
const cellValue = (id: number, state: number) => (Math.floor(id / SLOTS) % ROUNDS) * 4 + state;

/**
 * The thread's program. Plain JavaScript, so it starts the same from sources (tsx, vitest) and
 * from the build. A request the caller has taken back is skipped. One prepared statement per
 * SQL text, as on the main connection.
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.filename, { readonly: true, fileMustExist: true, timeout: 10000 });
const states = new Int32Array(workerData.states);
const statements = new Map();
parentPort.on('message', ({ id, slot, queued, taken, sql, params }) => {
  if (Atomics.compareExchange(states, slot, queued, taken) !== queued) return;
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

interface Pending {
  sql: string;
  params: unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

/**
 * Runs reads of an embedded database file in a worker thread with its own read-only connection,
 * so that a read (the keyword side of context) proceeds while this thread does other work (the
 * vector scan). The thread reads committed data only, which every write of this process already
 * is when its call returns.
 *
 * When this thread is free again and the worker has not started the read yet (a busy machine
 * gives it no core), the read is taken back and run here: waiting for the worker would only add
 * its scheduling delay. A failed or closed thread leaves every read to this thread's connection.
 */
export class ReadThread {
  private readonly pending = new Map<number, Pending>();
  private readonly states: Int32Array;
  private nextId = 0;
  private stopped = false;

  private constructor(
    private readonly db: Database.Database,
    states: SharedArrayBuffer,
    private readonly worker: Worker,
  ) {
    this.states = new Int32Array(states);
    worker.on('message', (response: Response) => this.settle(response));
    worker.on('error', () => this.stop());
    worker.on('exit', () => this.stop());
    // An idle thread never keeps the process alive; a read in flight does (see all).
    worker.unref();
  }

  /** For a database opened from a file; `db` is this thread's connection to it. */
  static start(db: Database.Database): ReadThread {
    const states = new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    return new ReadThread(db, states, new Worker(PROGRAM, { eval: true, workerData: { filename: db.name, driver, states } }));
  }

  /** False once the thread has failed or been closed. */
  get running(): boolean {
    return !this.stopped;
  }

  all(sql: string, params: unknown[]): Promise<unknown[]> {
    if (this.stopped) return this.here(sql, params);
    const id = this.nextId++;
    const slot = id % SLOTS;
    const queued = cellValue(id, QUEUED);
    Atomics.store(this.states, slot, queued);
    if (this.pending.size === 0) this.worker.ref();
    const result = new Promise<unknown[]>((resolve, reject) => this.pending.set(id, { sql, params, resolve, reject }));
    this.worker.postMessage({ id, slot, queued, taken: cellValue(id, TAKEN_BY_THREAD), sql, params });
    // Runs once this thread has finished its synchronous work (the vector scan, other queries).
    setImmediate(() => {
      if (Atomics.compareExchange(this.states, slot, queued, cellValue(id, TAKEN_BY_CALLER)) === queued) this.runHere(id);
    });
    return result;
  }

  private async here(sql: string, params: unknown[]): Promise<unknown[]> {
    return this.db.prepare(sql).all(...params);
  }

  private runHere(id: number): void {
    const waiting = this.take(id);
    if (waiting) this.here(waiting.sql, waiting.params).then(waiting.resolve, waiting.reject);
  }

  private take(id: number): Pending | undefined {
    const waiting = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker.unref();
    return waiting;
  }

  private settle(response: Response): void {
    const waiting = this.take(response.id);
    if (!waiting) return;
    if ('error' in response) waiting.reject(new Error(response.error));
    else waiting.resolve(response.rows);
  }

  /** The thread is gone: the reads it had not answered run here. */
  private stop(): void {
    this.stopped = true;
    for (const id of [...this.pending.keys()]) this.runHere(id);
  }

  async close(): Promise<void> {
    this.stop();
    await this.worker.terminate();
  }
}
