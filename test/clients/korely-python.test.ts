import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PYTHON_CACHE, pythonTool, run } from '../support/python.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The public `korely-memory` Python SDK from PyPI against a fresh Engram. Its
 * virtual environment lives outside the repository (~/.cache/engram); the test
 * is skipped, with a message, only when PyPI cannot be reached.
 */
const SDK = `korely-memory==${process.env.KORELY_SDK_VERSION ?? '0.1.28'}`;
const tool = await pythonTool('korely-python-venv', SDK);
if ('skip' in tool) console.warn(`korely-memory SDK test skipped: ${tool.skip}`);

let t: TestServer;
beforeAll(async () => {
  if ('bin' in tool) t = await startTestServer();
});
afterAll(() => t?.close());

describe.skipIf('skip' in tool)(`the public Python SDK (${SDK})`, () => {
  it('drives a fresh server through every call an existing client makes', async () => {
    const readOnly = await t.keyFor({ workspace: 'test', scopes: ['memories:read'] });
    const result = await run(join((tool as { bin: string }).bin, 'python'), [new URL('./korely_python.py', import.meta.url).pathname], {
      ENGRAM_URL: t.url,
      ENGRAM_API_KEY: t.key,
      ENGRAM_READ_ONLY_KEY: readOnly.key,
      KORELY_API_KEY: '',
      KORELY_BASE_URL: '',
      KORELY_CONFIG_HOME: join(PYTHON_CACHE, 'korely-no-config'),
    });
    expect(result.out).toContain('ALL OK');
    expect(result.code, result.out).toBe(0);
  }, 120_000);
});
