/** Retries an async operation with capped exponential backoff. */

export interface RetryPolicy {
  /** Retries after the first attempt (0 = try once). */
  maxRetries: number;
  /** Delay before the first retry; doubles each time. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface RetryDecision {
  retry: boolean;
  /** Server-requested delay (Retry-After), used instead of the backoff when present. */
  delayMs?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function withRetry<T>(
  operation: (attempt: number) => Promise<T>,
  policy: RetryPolicy,
  classify: (error: unknown) => RetryDecision,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      const decision = classify(error);
      if (!decision.retry || attempt >= policy.maxRetries) throw error;
      const backoff = policy.baseDelayMs * 2 ** attempt;
      await sleep(Math.min(decision.delayMs ?? backoff, policy.maxDelayMs));
    }
  }
}
