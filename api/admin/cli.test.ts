import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHARED_CACHE_DIR } from '../../test/support/server.js';
import { startApiProcess, stopProcess } from '../../test/support/processes.js';

const ROOT = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-cli-'));
  dirs.push(d);
  return d;
};

/** Runs the admin CLI exactly as docs/api-guide.md shows it. */
function admin(dataDir: string, ...args: string[]) {
  const result = spawnSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR },
    encoding: 'utf8',
  });
  const lines = result.stdout.trim().split('\n');
  return { status: result.status, stderr: result.stderr, last: lines[lines.length - 1] };
}

/** `npm start`'s entry point on a data folder; resolves with the URL and the key it printed, if any. */
async function startService(dataDir: string) {
  const { child, url } = await startApiProcess({ DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR });
  const key = /\n {2}(eng_\S+)\n/.exec(child.output())?.[1] ?? null;
  return { url, key, stop: () => stopProcess(child) };
}

describe('first start and the admin CLI', () => {
  it('npm start on an empty data folder prints a working key once; the CLI manages keys while it runs', async () => {
    const dataDir = tempDir();
    const service = await startService(dataDir);
    try {
      expect(service.key).toMatch(/^eng_/);
      const ping = await fetch(`${service.url}/v1/ping`, { headers: { Authorization: `Bearer ${service.key}` } });
      expect(ping.status).toBe(200);

      const created = admin(dataDir, 'keys', 'create', '--workspace', 'acme', '--plan', 'team', '--scopes', 'memories:read', '--agent', 'support-bot');
      expect(created.status).toBe(0);
      const key = JSON.parse(created.last);
      expect(key).toMatchObject({ workspace: 'acme', plan: 'team', scopes: ['memories:read'], agent_id: 'support-bot' });
      expect(key.key).toMatch(/^eng_/);
      expect(key.key_id).toMatch(/^key_/);
      const asAcme = await fetch(`${service.url}/v1/ping`, { headers: { Authorization: `Bearer ${key.key}` } });
      expect(await asAcme.json()).toMatchObject({ ok: true, tier: 'team', scopes: ['memories:read'] });

      const defaults = JSON.parse(admin(dataDir, 'keys', 'create', '--workspace', 'acme', '--plan', 'team').last);
      expect(defaults.scopes).toEqual(['memories:read', 'memories:write']);
      expect(defaults.agent_id).toBeNull();

      const listed = JSON.parse(admin(dataDir, 'keys', 'list').last);
      expect(listed.keys.map((k: any) => k.key_id)).toEqual(expect.arrayContaining([key.key_id, defaults.key_id]));
      expect(JSON.stringify(listed)).not.toContain(key.key);

      expect(JSON.parse(admin(dataDir, 'keys', 'revoke', key.key_id).last)).toEqual({ key_id: key.key_id, revoked: true });
      const revoked = await fetch(`${service.url}/v1/ping`, { headers: { Authorization: `Bearer ${key.key}` } });
      expect(revoked.status).toBe(401);
    } finally {
      await service.stop();
    }
    // a second start prints no new key
    const again = await startService(dataDir);
    try {
      expect(again.key).toBeNull();
    } finally {
      await again.stop();
    }
  }, 90_000);

  it('rejects bad CLI arguments with a usage message and a non-zero exit', () => {
    const dataDir = tempDir();
    const bad = admin(dataDir, 'keys', 'create', '--workspace', 'acme', '--plan', 'platinum');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--plan');
    expect(admin(dataDir, 'keys', 'create', '--workspace', 'acme', '--plan', 'hobby', '--scopes', 'memories:delete').status).toBe(2);
    expect(admin(dataDir, 'nonsense').status).toBe(2);
    expect(admin(dataDir, 'keys', 'revoke', 'key_missing').status).toBe(2);
  });

  it('a bad configuration value stops start-up with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['RATE_LIMIT_PER_SECOND', '-3'],
      ['REDIS_URL', 'not a url'],
      ['EMBEDDER', 'word2vec'],
    ]) {
      const result = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'main.ts')], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: tempDir(), [name]: value },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status, name).toBe(2);
      expect(result.stderr).toContain(name);
    }
  });
});
