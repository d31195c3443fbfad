import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/support/redis.js';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
const basic = (s: string) => ({ Authorization: `Basic ${Buffer.from(s).toString('base64')}` });

beforeAll(async () => {
  t = await startTestServer({ REDIS_URL: testRedisUrl(), ADMIN_CREDENTIALS: 'ops:s3cret' });
});
afterAll(async () => t?.close());

describe('queue dashboard at /admin/queues', () => {
  it('refuses missing or wrong operator credentials, and API keys', async () => {
    expect((await t.api(null).get('/admin/queues')).status).toBe(401);
    expect((await t.api(null).request('GET', '/admin/queues', undefined, basic('ops:wrong'))).status).toBe(401);
    expect((await t.api().get('/admin/queues')).status).toBe(401);
  });

  it('serves the bull-board page and its assets, listing the six stage queues', async () => {
    const page = await fetch(`${t.url}/admin/queues`, { headers: basic('ops:s3cret') });
    expect(page.status).toBe(200);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    const html = await page.text();
    expect(html).toContain('<div id="root"');
    const script = /src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(new URL(script!, `${t.url}/admin/queues/`), { headers: basic('ops:s3cret') });
    expect(asset.status).toBe(200);
    const queues = await fetch(`${t.url}/admin/queues/api/queues`, { headers: basic('ops:s3cret') });
    expect(queues.status).toBe(200);
    const names = ((await queues.json()) as any).queues.map((q: any) => q.name).sort();
    expect(names).toEqual(['commit', 'contradiction-1', 'contradiction-2', 'embed', 'entities', 'facts']);
  });

});
