import { ConnectionError, parseRetryAfter } from './errors.js';

export interface TransportOptions {
  fetch: typeof globalThis.fetch;
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** The longest wait before a retry; a `Retry-After` longer than this is not waited for (default 30 s). */
  maxRetryDelayMs: number;
  /** Per attempt (default 30 s, as the other Engram clients). */
  timeoutMs: number;
}

/** Requests that read only: safe to send again after a connection failure. */
function isRead(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return true;
  return request.method === 'POST' && new URL(request.url).pathname.endsWith('/v1/memories/search');
}

/**
 * A `fetch` that retries what the server refused without acting on it: 429 with `Retry-After`
 * (`rate_limit_exceeded`; `quota_exceeded` has none and is not retried) and 503, waiting as long
 * as `Retry-After` says or backing off exponentially. Reads are also retried after a connection failure.
 */
export function retryingFetch(options: TransportOptions): (input: Request) => Promise<Response> {
  return async (request: Request) => {
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.maxRetries;
      let response: Response;
      try {
        response = await attemptOnce(options, request.clone());
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason ?? error;
        if (last || !isRead(request)) throw error;
        await sleep(backoff(attempt, options.maxRetryDelayMs), request.signal);
        continue;
      }
      if (last || (response.status !== 429 && response.status !== 503)) return response;
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (response.status === 429 && retryAfter === undefined) return response; // quota_exceeded: waiting does not help
      const delay = retryAfter === undefined ? backoff(attempt, options.maxRetryDelayMs) : retryAfter * 1000;
      if (delay > options.maxRetryDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}

async function attemptOnce(options: TransportOptions, request: Request): Promise<Response> {
  const controller = new AbortController();
  const outer = request.signal;
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    return await options.fetch(request, { signal: controller.signal });
  } catch (error) {
    if (outer?.aborted) throw outer.reason ?? error;
    const message = timedOut
      ? `${request.method} ${request.url}: no answer within ${options.timeoutMs} ms`
      : `${request.method} ${request.url}: ${error instanceof Error ? error.message : String(error)}`;
    throw new ConnectionError({ status: 0, code: 'connection_error', message, cause: error });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onAbort);
  }
}

function backoff(attempt: number, max: number): number {
  const base = Math.min(max, 500 * 2 ** attempt);
  return base / 2 + Math.random() * (base / 2);
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
