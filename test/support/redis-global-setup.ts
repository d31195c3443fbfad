import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../backends/ports.js';

/**
 * Starts a throwaway redis-server for the suite (unless TEST_REDIS_URL is
 * given) and exposes its URL as TEST_REDIS_URL. Redis is a real dependency of
 * the production mode, so its tests run against a real server, never a fake.
 */
let child: ChildProcess | null = null;
let dir: string | null = null;


export async function setup() {
  if (process.env.TEST_REDIS_URL) return;
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    process.env.TEST_REDIS_URL = '';
    return;
  }
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'engram-redis-'));
  child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
    stdio: 'ignore',
  });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  while (spawnSync('redis-cli', ['-p', String(port), 'ping']).stdout?.toString().trim() !== 'PONG') {
    if (Date.now() > deadline) throw new Error('redis-server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  process.env.TEST_REDIS_URL = url;
}

export async function teardown() {
  child?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
}
