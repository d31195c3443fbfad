import { expect, it } from 'vitest';
import { outageErrorOf } from '../core/outages.js';
import { ScopeLockTimeoutError } from '../pipeline/write/scope-order.js';
import { VectorIndexUnavailableError } from '../storage/vector/types.js';

/** Backend failures a client can wait out are 503 with Retry-After (docs/operations.md#faults), never a 500. */
it.each([
  ['the vector index unreachable', new VectorIndexUnavailableError('Elasticsearch unreachable')],
  ['the scope lock busy past its wait', new ScopeLockTimeoutError('timed out waiting for the commit lock')],
  ['Redis past its retries', Object.assign(new Error('Reached the max retries per request limit'), { name: 'MaxRetriesPerRequestError' })],
  ['a cause of those', new Error('wrapped', { cause: new VectorIndexUnavailableError('down') })],
])('%s is 503 service_unavailable with Retry-After', (_, error) => {
  const answer = outageErrorOf(error);
  expect(answer).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(answer?.headers?.['Retry-After']).toMatch(/^[1-9]\d*$/);
});

it('any other error is not an outage', () => {
  expect(outageErrorOf(new Error('a bug'))).toBeNull();
});
