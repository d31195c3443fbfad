import { describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/support/server.js';

/** The embedded mode only (npm test): production always has Redis, so vitest.backends.config.ts leaves this file out. */
const basic = (s: string) => ({ Authorization: `Basic ${Buffer.from(s).toString('base64')}` });

describe('queue dashboard at /admin/queues', () => {
  it('is absent without Redis', async () => {
    const embedded = await startTestServer({ ADMIN_CREDENTIALS: 'ops:s3cret' });
    try {
      expect((await embedded.api(null).request('GET', '/admin/queues', undefined, basic('ops:s3cret'))).status).toBe(404);
    } finally {
      await embedded.close();
    }
  });
});
