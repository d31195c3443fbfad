import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { chromiumPath as executablePath, launchChromium } from '../../../test/support/browser.js';
import { testRedisUrl } from '../../../test/support/redis.js';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

/** Loads the queue dashboard in headless Chromium (Debian's, installed by scripts/test-prerequisites.sh) and reads what it shows. */
if (!executablePath) console.warn('Dashboard browser test skipped: no chromium (apt-get install chromium)');

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  if (!executablePath) return;
  t = await startTestServer({ REDIS_URL: testRedisUrl(), ADMIN_CREDENTIALS: 'ops:s3cret' });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe.skipIf(!executablePath)('queue dashboard in a real browser', () => {
  it('shows the six stage queues to an operator', async () => {
    await t.api().post('/v1/memories', { content: 'I live in Oslo.', user_id: 'dash' });
    await t.settle();
    const context = await browser.newContext({ httpCredentials: { username: 'ops', password: 's3cret' } });
    const page = await context.newPage();
    await page.goto(`${t.url}/admin/queues`);
    await page.waitForSelector('text=contradiction-2', { timeout: 20_000 });
    const text = await page.innerText('body');
    for (const queue of ['embed', 'entities', 'facts', 'contradiction-1', 'contradiction-2', 'commit']) expect(text).toContain(queue);
    expect(text).toContain('Engram queues');
    await context.close();
  }, 60_000);

  it('asks a browser without credentials to authenticate', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // Headless Chromium cannot show the login prompt, so the 401 challenge ends the navigation.
    await expect(page.goto(`${t.url}/admin/queues`)).rejects.toThrow(/ERR_INVALID_AUTH_CREDENTIALS/);
    await context.close();
  });
});
