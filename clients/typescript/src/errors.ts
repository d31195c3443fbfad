/** The `code` of an Engram error body (`{code, message}`), as the interface spec lists them. */
export type EngramErrorCode =
  | 'invalid_key'
  | 'forbidden'
  | 'agent_cap_exceeded'
  | 'not_found'
  | 'method_not_allowed'
  | 'stale_write'
  | 'fact_not_current'
  | 'invalid_request'
  | 'quota_exceeded'
  | 'rate_limit_exceeded'
  | 'search_unavailable'
  | 'queue_unavailable'
  | 'service_unavailable'
  /** No HTTP answer: the connection failed or the request timed out. */
  | 'connection_error'
  /** An answer that is not an Engram error body (a proxy's HTML page, say). */
  | 'unexpected_response'
  | (string & {});

export interface EngramErrorInit {
  status: number;
  code: EngramErrorCode;
  message: string;
  /** Seconds the server asked to wait (`Retry-After`), when it sent one. */
  retryAfter?: number;
  requestId?: string;
  cause?: unknown;
}

/** Every error the client throws. `status` is 0 when no HTTP answer came back. */
export class EngramError extends Error {
  readonly status: number;
  readonly code: EngramErrorCode;
  readonly retryAfter: number | undefined;
  readonly requestId: string | undefined;

  constructor(init: EngramErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.code = init.code;
    this.retryAfter = init.retryAfter;
    this.requestId = init.requestId;
  }
}

/** 401 `invalid_key`: the key is missing, malformed or revoked. */
export class AuthenticationError extends EngramError {}
/** 403 `forbidden` (the key lacks a scope) or `agent_cap_exceeded`. */
export class PermissionDeniedError extends EngramError {}
/** 404 `not_found`: no such resource in the key's workspace (or already forgotten). */
export class NotFoundError extends EngramError {}
/** 409 `stale_write` (re-read and retry) or `fact_not_current`. */
export class ConflictError extends EngramError {}
/** 422 `invalid_request`: the message reads `<field>: <reason>`. */
export class ValidationError extends EngramError {}
/** 429 `rate_limit_exceeded` (with `retryAfter`) or `quota_exceeded` (no retry helps until the quota resets). */
export class RateLimitError extends EngramError {}
/** 503: `search_unavailable`, `queue_unavailable` or `service_unavailable`; retrying later helps. */
export class ServiceUnavailableError extends EngramError {}
/** No HTTP answer: the connection failed, or the request timed out (`code` `connection_error`). */
export class ConnectionError extends EngramError {}

const byStatus: Record<number, typeof EngramError> = {
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: ValidationError,
  429: RateLimitError,
  503: ServiceUnavailableError,
};

/** The typed error for a non-2xx answer and its (parsed) body. */
export function errorFromResponse(response: Response, body: unknown): EngramError {
  const isErrorBody =
    typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string' && typeof (body as { message?: unknown }).message === 'string';
  const code = isErrorBody ? (body as { code: string }).code : 'unexpected_response';
  const message = isErrorBody
    ? (body as { message: string }).message
    : `HTTP ${response.status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
  const Class = byStatus[response.status] ?? EngramError;
  return new Class({
    status: response.status,
    code,
    message,
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    requestId: response.headers.get('x-request-id') ?? undefined,
  });
}

/** `Retry-After` in seconds: an integer, or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}
