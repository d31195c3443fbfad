/** An error that maps to the spec's flat `{code, message}` body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string) => new ApiError(422, 'invalid_request', message);
export const notFound = (message = 'Not found') => new ApiError(404, 'not_found', message);
export const invalidKey = () => new ApiError(401, 'invalid_key', 'Invalid or missing API key');
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const agentCapExceeded = (cap: number) =>
  new ApiError(403, 'agent_cap_exceeded', `Agent cap of ${cap} reached for this plan; the write was not applied`);
export const staleWrite = () =>
  new ApiError(409, 'stale_write', 'expected_updated_at does not match the current updated_at; fetch the latest version and retry');
export const quotaExceeded = (kind: 'write' | 'query', limit: number) =>
  new ApiError(429, 'quota_exceeded', `Monthly ${kind} quota of ${limit} reached (grace included); it resets at the next billing cycle`);
export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limit_exceeded', 'Too many requests per second; retry later', { 'Retry-After': String(retryAfterSeconds) });
/** Seconds a 503 asks the client to wait: about what a restarted Redis or database needs to answer again. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;
const unavailable = (code: string, message: string) =>
  new ApiError(503, code, message, { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) });

export const queueUnavailable = () => unavailable('queue_unavailable', 'The write queue is temporarily unavailable; nothing was stored, retry');
export const countersUnavailable = () => unavailable('service_unavailable', 'Rate limit and quota counters are temporarily unavailable; retry');
export const storeUnavailable = () => unavailable('service_unavailable', 'The database is temporarily unavailable; retry');
export const vectorsUnavailable = () => unavailable('service_unavailable', 'The vector index is temporarily unavailable; nothing was changed, retry');
export const scopeBusy = () => unavailable('service_unavailable', "The end user's data is busy with other writes; retry");
export const searchUnavailable = () => unavailable('search_unavailable', 'Vector search backend temporarily unavailable; retry');
export const storageFull = () =>
  new ApiError(507, 'insufficient_storage', 'The data volume is full; nothing more can be stored until space is freed');
