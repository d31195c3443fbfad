import { ScopeLockTimeoutError } from '../pipeline/write/scope-order.js';
import { VectorIndexUnavailableError } from '../storage/vector/types.js';
import { ApiError, countersUnavailable, scopeBusy, storageFull, storeUnavailable, vectorsUnavailable } from './errors.js';

/**
 * MongoDB driver errors that mean "the server cannot be reached right now", by name: the driver is loaded only
 * when MONGODB_URL is set, so it is not imported here.
 */
const UNREACHABLE_MONGO_ERRORS = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
  'MongoWaitQueueTimeoutError',
]);

/**
 * Socket errors of a connection the server dropped. The driver lets some through unwrapped (a write on a socket the
 * server ended is a plain EPIPE). Only as the error itself: other clients (Elasticsearch, Redis, an embedding provider)
 * wrap theirs, and their causes are not the database's.
 */
const DROPPED_CONNECTION_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED']);

/** The class names of an error and of every class it extends: the driver subclasses these (PoolClearedOnNetworkError). */
function classNames(error: any): string[] {
  const names: string[] = [];
  for (let proto = error && Object.getPrototypeOf(error); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    names.push(proto.constructor?.name);
  }
  return names;
}

function causes(error: unknown): any[] {
  const chain: any[] = [];
  for (let e: any = error; e && chain.length < 5; e = e.cause) chain.push(e);
  return chain;
}

/** The database server (MongoDB) did not answer. */
export function isStoreUnreachable(error: unknown): boolean {
  if (DROPPED_CONNECTION_CODES.has((error as any)?.code)) return true;
  return causes(error).some((e) => UNREACHABLE_MONGO_ERRORS.has(e?.name) || classNames(e).some((name) => UNREACHABLE_MONGO_ERRORS.has(name)));
}

/** A write hit a full disk: SQLite's SQLITE_FULL, or ENOSPC from a file write. */
export function isStorageFull(error: unknown): boolean {
  return causes(error).some((e) => e?.code === 'SQLITE_FULL' || e?.code === 'ENOSPC');
}

/** ioredis gave up on a command: Redis did not answer within its retries. */
function isRedisUnreachable(error: unknown): boolean {
  return causes(error).some((e) => e?.name === 'MaxRetriesPerRequestError');
}

/**
 * The answer to a backend failure the caller can only wait out (503) or an operator must fix (507); null for any
 * other error. Commands that change data reach the vector index and the scope lock before they change anything,
 * so these 503s leave nothing half done.
 */
export function outageErrorOf(error: unknown): ApiError | null {
  if (isStorageFull(error)) return storageFull();
  if (isStoreUnreachable(error)) return storeUnavailable();
  if (isRedisUnreachable(error)) return countersUnavailable();
  const chain = causes(error);
  if (chain.some((e) => e instanceof VectorIndexUnavailableError)) return vectorsUnavailable();
  if (chain.some((e) => e instanceof ScopeLockTimeoutError)) return scopeBusy();
  return null;
}
