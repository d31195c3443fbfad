import { sleep } from './stack.js';

export type Kind = 'write' | 'batch' | 'search' | 'context' | 'update' | 'forget' | 'erase';
export const KINDS: Kind[] = ['write', 'batch', 'search', 'context', 'update', 'forget', 'erase'];

export interface Outcome {
  status: number;
  body: any;
}

/** What the client saw, per kind: every attempt's status, retries, and the latency of each answered request. */
export class RequestStats {
  readonly byKind = new Map<Kind, { requests: number; accepted: number; retries: number; statuses: Record<string, number>; latenciesMs: number[] }>(
    KINDS.map((k) => [k, { requests: 0, accepted: 0, retries: 0, statuses: {}, latenciesMs: [] }]),
  );

  summary() {
    return Object.fromEntries(
      [...this.byKind].map(([kind, s]) => {
        const sorted = [...s.latenciesMs].sort((a, b) => a - b);
        const at = (q: number) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]) : null);
        return [kind, { requests: s.requests, accepted: s.accepted, retries: s.retries, statuses: s.statuses, p50_ms: at(0.5), p95_ms: at(0.95) }];
      }),
    );
  }
}

const RETRY_WINDOW_MS = 120_000;
const REQUEST_TIMEOUT_MS = 60_000;

/**
 * An API client as a careful real one behaves: 503 and 429 are retried after their Retry-After (capped at 10 s)
 * for up to two minutes; anything else is final. Requests alternate between the API processes.
 */
export class SoakClient {
  private next = 0;
  /** After this time a refused request is not retried: the client gives up, the write was not accepted. */
  retryUntil = Infinity;

  constructor(
    private readonly urls: string[],
    private readonly key: string,
    readonly stats: RequestStats,
  ) {}

  /** The final answer, or null when no answer came (a network error or timeout: the outcome is unknown). */
  async call(kind: Kind, method: string, path: string, body?: unknown): Promise<Outcome | null> {
    const stats = this.stats.byKind.get(kind)!;
    stats.requests++;
    const started = Date.now();
    for (;;) {
      const url = this.urls[this.next++ % this.urls.length];
      const attemptStarted = performance.now();
      let outcome: Outcome & { retryAfter: number } | null;
      try {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: { Authorization: `Bearer ${this.key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await res.text();
        outcome = { status: res.status, body: text ? JSON.parse(text) : undefined, retryAfter: Number(res.headers.get('retry-after')) || 1 };
      } catch {
        outcome = null;
      }
      const status = outcome ? String(outcome.status) : 'no_answer';
      stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
      if (outcome && outcome.status >= 200 && outcome.status < 300) {
        stats.accepted++;
        stats.latenciesMs.push(performance.now() - attemptStarted);
      }
      if (!outcome) return null;
      if ((outcome.status === 503 || outcome.status === 429) && Date.now() - started < RETRY_WINDOW_MS && Date.now() < this.retryUntil) {
        stats.retries++;
        await sleep(Math.min(outcome.retryAfter, 10) * 1000);
        continue;
      }
      return outcome;
    }
  }
}
