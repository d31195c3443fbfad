import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The public `korely-memory` Python SDK from PyPI against a fresh Engram. Its
 * virtual environment lives outside the repository (~/.cache/engram); the test
 * is skipped, with a message, only when PyPI cannot be reached.
 */
const SDK = `korely-memory==${process.env.KORELY_SDK_VERSION ?? '0.1.28'}`;
const venv = join(process.env.ENGRAM_CACHE ?? join(homedir(), '.cache', 'engram'), 'korely-python-venv');
const python = join(venv, 'bin', 'python');

function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 300_000) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, out: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

async function installSdk(): Promise<string | null> {
  if (!existsSync(python)) {
    mkdirSync(join(venv, '..'), { recursive: true });
    const made = await run('python3', ['-m', 'venv', venv]);
    if (made.code !== 0) throw new Error(`python3 -m venv failed (apt-get install python3-venv, as .ci/run does):\n${made.out}`);
  }
  const installed = await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', SDK], {
    PIP_CACHE_DIR: join(venv, '..', 'pip-cache'),
  });
  if (installed.code === 0) return null;
  if (/Network|connection|resolve|Temporary failure|No matching distribution|timed out/i.test(installed.out)) {
    return `PyPI unreachable, ${SDK} not installed:\n${installed.out.slice(-500)}`;
  }
  throw new Error(`pip install ${SDK} failed:\n${installed.out}`);
}

const skipReason = await installSdk();
if (skipReason) console.warn(`korely-memory SDK test skipped: ${skipReason}`);

let t: TestServer;
beforeAll(async () => {
  if (!skipReason) t = await startTestServer();
});
afterAll(() => t?.close());

describe.skipIf(skipReason !== null)(`the public Python SDK (${SDK})`, () => {
  it('drives a fresh server through every call an existing client makes', async () => {
    const readOnly = await t.keyFor({ workspace: 'test', scopes: ['memories:read'] });
    const result = await run(python, [new URL('./korely_python.py', import.meta.url).pathname], {
      ENGRAM_URL: t.url,
      ENGRAM_API_KEY: t.key,
      ENGRAM_READ_ONLY_KEY: readOnly.key,
      KORELY_API_KEY: '',
      KORELY_BASE_URL: '',
      KORELY_CONFIG_HOME: join(venv, 'no-config'),
    });
    expect(result.out).toContain('ALL OK');
    expect(result.code, result.out).toBe(0);
  }, 120_000);
});
