import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The README's five-minute tour, run as written against a live server: every curl command of its shell blocks, in
 * order, must succeed (curl --fail-with-body), answer JSON where it answers anything, and the facts the tour shows
 * must be the facts the server gives.
 */
const run = promisify(execFile);
const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The curl commands of the tour's ```sh blocks, continuation lines joined, comments dropped. */
function tourCommands(): string[] {
  const tour = README.slice(README.indexOf('## Five-minute tour'), README.indexOf('\n## ', README.indexOf('## Five-minute tour') + 1));
  const blocks = [...tour.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#\s.*$/, '').trim())
      .filter((line) => line.startsWith('curl ')),
  );
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

describe("the README's tour runs as written", () => {
  it('every curl command succeeds against a live server and shows what the README says', async () => {
    const commands = tourCommands();
    expect(commands.length).toBeGreaterThanOrEqual(10);
    const outputs: string[] = [];
    for (const command of commands) {
      const live = command.replaceAll('http://localhost:8080', t.url).replace(/^curl /, 'curl --fail-with-body -sS ');
      const { stdout } = await run('bash', ['-c', live], { env: { ...process.env, H: `Authorization: Bearer ${t.key}` } });
      if (stdout.trim()) expect(() => JSON.parse(stdout), `${command}\n${stdout}`).not.toThrow();
      outputs.push(stdout);
      // The tour waits "a second or so" after a write; the test waits until the pipeline is done.
      if (/-d '/.test(command) && /\/v1\/(memories|batch)\b/.test(command) && !/search/.test(command)) await t.settle();
    }
    const output = (pattern: RegExp) => outputs[commands.findIndex((c) => pattern.test(c))];
    expect(output(/\/v1\/context\?/)).toContain('lives in Munich');
    const facts = JSON.parse(output(/\/v1\/facts\?user_id=alice"/));
    expect(facts.facts.map((f: { predicate: string; object: string }) => `${f.predicate} ${f.object}`)).toEqual(
      expect.arrayContaining(['lives_in Munich', 'works_at Siemens']),
    );
    const earlier = JSON.parse(output(/as_of=/));
    expect(earlier.facts.map((f: { object: string }) => f.object)).toContain('Berlin');
  }, 60_000);
});
