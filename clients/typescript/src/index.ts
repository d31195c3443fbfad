export { Engram, Memories, Facts, Users, Agents, Batches } from './client.js';
export type { EngramOptions, RequestOptions, WaitOptions, AddBatchOptions, BatchProgress, BatchResult } from './client.js';
export {
  EngramError,
  AuthenticationError,
  PermissionDeniedError,
  NotFoundError,
  ConflictError,
  ValidationError,
  RateLimitError,
  ServiceUnavailableError,
  ConnectionError,
} from './errors.js';
export type { EngramErrorCode, EngramErrorInit } from './errors.js';
export type * from './types.js';
export type { paths, components, operations } from './generated/openapi.js';
