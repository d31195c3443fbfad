import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../scripts/generate-types.mjs', import.meta.url));

/** The committed src/generated/openapi.ts is what openapi-typescript makes of the API as it is now. */
describe('the generated types', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  it('match the document the server builds, and the one a running server serves', async () => {
    const built = await run(process.execPath, [SCRIPT, '--check']);
    expect(built.stdout).toContain('up to date');
    const served = await run(process.execPath, [SCRIPT, '--check', '--url', `${t.url}/openapi.json`]);
    expect(served.stdout).toContain('up to date');
  });
});
