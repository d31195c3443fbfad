import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';
import { waitFor } from '../../../test/support/wait.js';

let t: TestServer;
beforeAll(async () => {
  // Workers off: the batch's items are still queued when the user is erased.
  t = await startTestServer({}, { runWorkers: false });
});
afterAll(async () => t?.close());

it('a batch whose items were erased before they ran completes, the erased items counted as failed', async () => {
  const memories = [
    { content: 'I live in Porto.', user_id: 'gone' },
    { content: 'I work at Sonae.', user_id: 'gone' },
    { content: 'I like tapas.', user_id: 'stays' },
  ];
  const batch = (await t.api().post('/v1/batch', { memories })).body;
  expect((await t.api().delete('/v1/users/gone/memories')).status).toBe(200);

  const erased = { memory_id: null, message: 'erased before it was imported' };
  expect((await t.api().get(`/v1/batch/${batch.id}`)).body).toMatchObject({ status: 'processing', failed: 2, errors: [{ index: 0, ...erased }, { index: 1, ...erased }] });
  await t.startWorkers();
  // The batch counts an item once its memory is ready, so a batch is read until it completes, not until its memories settle.
  const done = await waitFor(async () => {
    const body = (await t.api().get(`/v1/batch/${batch.id}`)).body;
    return body.status === 'completed' ? body : undefined;
  }, 60_000, 50);
  expect(done).toMatchObject({ received: 3, imported: 1, failed: 2 });
});
