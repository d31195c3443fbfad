import type { FlowJob } from 'bullmq';

/** How many flows one addBulk (one MULTI/EXEC) carries at most. */
const MAX_FLOWS_PER_CALL = 100;

/**
 * Flows enqueued by concurrent requests, added to Redis together: whatever arrives while an
 * addBulk is on its way goes in the next one, so under load one MULTI/EXEC round trip carries
 * many requests' flows instead of one each. Each caller's promise settles with the call that
 * carried its flows: resolved once they are durable, rejected when that call failed.
 */
export class FlowBatches {
  private waiting: { flows: FlowJob[]; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private sending = false;

  constructor(private readonly addBulk: (flows: FlowJob[]) => Promise<unknown>) {}

  add(flows: FlowJob[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ flows, resolve, reject });
      if (!this.sending) void this.send();
    });
  }

  private async send(): Promise<void> {
    this.sending = true;
    // Requests handled in this turn of the event loop join the first call too.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiting.length > 0) {
      const callers = this.takeUpTo(MAX_FLOWS_PER_CALL);
      try {
        const flows = callers.flatMap((c) => c.flows);
        for (let i = 0; i < flows.length; i += MAX_FLOWS_PER_CALL) await this.addBulk(flows.slice(i, i + MAX_FLOWS_PER_CALL));
        for (const c of callers) c.resolve();
      } catch (error) {
        for (const c of callers) c.reject(error);
      }
    }
    this.sending = false;
  }

  /** Whole callers, in arrival order, up to `max` flows (a caller with more goes alone, in several calls). */
  private takeUpTo(max: number) {
    let count = 0;
    let n = 0;
    while (n < this.waiting.length && (n === 0 || count + this.waiting[n].flows.length <= max)) count += this.waiting[n++].flows.length;
    return this.waiting.splice(0, n);
  }
}
