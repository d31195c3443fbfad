import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chromiumPath as executablePath, launchChromium } from '../../../test/support/browser.js';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

/** Drives the /docs playground in headless Chromium (Debian's, installed by scripts/test-prerequisites.sh) as a user would. */
if (!executablePath) console.warn('Playground browser test skipped: no chromium (apt-get install chromium)');

let t: TestServer;
let browser: Browser;
beforeAll(async () => {
  if (!executablePath) return;
  t = await startTestServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function execute(page: Page, opblock: string): Promise<{ status: number; body: any }> {
  const block = page.locator(opblock);
  const responded = page.waitForResponse((res) => res.url().startsWith(`${t.url}/v1/`) && res.request().method() !== 'OPTIONS');
  await block.locator('button.execute').click();
  const res = await responded;
  await block.locator('.live-responses-table').waitFor();
  return { status: res.status(), body: await res.json() };
}

describe.skipIf(!executablePath)('the /docs playground in a real browser', () => {
  it('renders the operations, sends requests with a key, and loads nothing from elsewhere', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));

    await page.goto(`${t.url}/docs`);
    await page.waitForSelector('#operations-Memories-addMemory', { timeout: 30_000 });
    const text = await page.innerText('body');
    for (const path of ['/v1/memories', '/v1/memories/search', '/v1/context', '/v1/facts', '/v1/batch', '/v1/users/{end_user}/memories']) {
      expect(text).toContain(path);
    }

    // Enter the key once, as a user does with the Authorize button.
    await page.click('button.authorize');
    await page.fill('.modal-ux input[type=text], .modal-ux input[type=password]', t.key);
    await page.click('.modal-ux button.authorize');
    await page.click('.modal-ux button.btn-done');

    await page.click('#operations-Memories-addMemory .opblock-summary');
    const body = JSON.stringify({ content: 'My favourite city is Porto.', user_id: 'browser' });
    await page.fill('#operations-Memories-addMemory textarea.body-param__text', body);
    const added = await execute(page, '#operations-Memories-addMemory');
    expect(added.status).toBe(200);
    expect(added.body).toEqual(expect.objectContaining({ content: 'My favourite city is Porto.', user_id: 'browser' }));
    await t.settle();

    await page.click('#operations-Retrieval-getContext .opblock-summary');
    await page.fill('#operations-Retrieval-getContext tr[data-param-name="query"] input', 'favourite city');
    await page.fill('#operations-Retrieval-getContext tr[data-param-name="user_id"] input', 'browser');
    const ctx = await execute(page, '#operations-Retrieval-getContext');
    expect(ctx.status).toBe(200);
    expect(ctx.body.context).toContain('Porto');
    expect(ctx.body.sources.length).toBeGreaterThan(0);

    const foreign = requested.filter((url) => !url.startsWith(`${t.url}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
    expect(foreign, 'requests outside the server').toEqual([]);
    expect(requested).toContain(`${t.url}/docs/assets/swagger-ui-bundle.js`);
    await context.close();
  }, 90_000);
});
