import { expect, it } from 'vitest';
import { MongoNetworkError, MongoServerError } from 'mongodb';
import { outageErrorOf } from '../core/outages.js';
import { ScopeLockTimeoutError } from '../pipeline/write/scope-order.js';
import { VectorIndexUnavailableError } from '../storage/vector/types.js';

class PoolClearedOnNetworkError extends MongoNetworkError {
  override get name() {
    return 'PoolClearedOnNetworkError';
  }
}

/** Backend failures a client can wait out are 503 with Retry-After (docs/operations.md#faults), never a 500. */
it.each([
  ['the vector index unreachable', new VectorIndexUnavailableError('Elasticsearch unreachable')],
  ['the scope lock busy past its wait', new ScopeLockTimeoutError('timed out waiting for the commit lock')],
  ['Redis past its retries', Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' })],
  ['MongoDB unreachable', new MongoNetworkError('connection 3 to 127.0.0.1:27017 closed')],
  // The driver's PoolClearedOnNetworkError (not exported) fails a request waiting for a connection when the pool is
  // cleared after a network error: a subclass of MongoNetworkError under a name of its own.
  ['a subclass of the driver\'s network error', new PoolClearedOnNetworkError('pool cleared')],
  // What the driver throws for a command written on a socket the server has just closed.
  ['a connection the server dropped', Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' })],
  ['a cause of those', new Error('wrapped', { cause: new VectorIndexUnavailableError('down') })],
])('%s is 503 service_unavailable with Retry-After', (_, error) => {
  const answer = outageErrorOf(error);
  expect(answer).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(answer?.headers?.['Retry-After']).toMatch(/^[1-9]\d*$/);
});

it('any other error is not an outage', () => {
  expect(outageErrorOf(new Error('a bug'))).toBeNull();
  expect(outageErrorOf(new MongoServerError({ message: 'duplicate key', code: 11000 }))).toBeNull();
});
