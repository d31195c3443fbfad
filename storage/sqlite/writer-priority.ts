/** `Atomics.waitAsync` (in Node since 16; in TypeScript's lib only from ES2024, past this project's ES2023). */
const waitAsync = (Atomics as unknown as {
  waitAsync(array: Int32Array, index: number, value: number, timeoutMs: number): { async: false; value: string } | { async: true; value: Promise<string> };
}).waitAsync;

/** The longest a yielding thread stands back for urgent writes at a time. */
const STAND_BACK_MS = 50;

/**
 * Lets one thread's writes go first at SQLite's single write lock. The API thread answers
 * requests, so its writes (acceptances, counters) are urgent; the pipeline threads commit back
 * to back and would otherwise win most contended attempts. A thread with an urgent write raises
 * a flag shared through memory while it waits for and holds the lock; the other threads check it
 * before each write and stand back while it is raised, for a bounded time so they never starve.
 */
export class WriterPriority {
  private readonly urgentWriters: Int32Array;

  /** `buffer`: the same memory in every thread of the process (pass `buffer` in `workerData`). */
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT)) {
    this.urgentWriters = new Int32Array(buffer);
  }

  /** Runs `work` (an urgent write, waiting for the lock included) with the flag raised. */
  async whileUrgent<T>(work: () => Promise<T>): Promise<T> {
    Atomics.add(this.urgentWriters, 0, 1);
    try {
      return await work();
    } finally {
      if (Atomics.sub(this.urgentWriters, 0, 1) === 1) Atomics.notify(this.urgentWriters, 0);
    }
  }

  /** Resolves once no urgent write is waiting or writing, or after `maxWaitMs` at the latest (bounded, so nothing starves). */
  async standBack(maxWaitMs = STAND_BACK_MS): Promise<void> {
    const deadline = Date.now() + maxWaitMs;
    for (let raised = Atomics.load(this.urgentWriters, 0); raised > 0; raised = Atomics.load(this.urgentWriters, 0)) {
      const left = deadline - Date.now();
      if (left <= 0) return;
      const wait = waitAsync(this.urgentWriters, 0, raised, left);
      if (wait.async) await wait.value;
    }
  }

  /** Whether an urgent write is waiting or writing now. */
  get raised(): boolean {
    return Atomics.load(this.urgentWriters, 0) > 0;
  }
}
