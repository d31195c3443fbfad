import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

const exec = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));
const npm = (args: string[], cwd: string) => exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, maxBuffer: 16 << 20 });
const node = (args: string[], cwd: string, env: Record<string, string>) => exec(process.execPath, args, { cwd, env: { ...process.env, ...env } });

/**
 * What users install is what was tested: `npm pack` of the client (its prepack builds dist/), installed into an empty
 * project, whose code type-checks under `tsc --strict` and drives a fresh server through the main calls, as ESM and CJS.
 */
describe('the packed @engram/client (and integrations) in an empty project', () => {
  let t: TestServer;
  let dir: string;
  let clientTarball: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-client-pack-'));
    t = await startTestServer();
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs, type-checks under --strict and drives a fresh server', async () => {
    const packed = await npm(['pack', '--json', '--pack-destination', dir], PACKAGE);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
    const files = info.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts']));
    expect(files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f))).toEqual([]);

    clientTarball = join(dir, info.filename);

    const project = join(dir, 'project');
    cpSync(new URL('./packed', import.meta.url), project, { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'engram-client-smoke', private: true, type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          // No @types/node: the client's types need nothing but fetch's.
          lib: ['ES2022', 'DOM'],
          types: [],
          skipLibCheck: false,
          outDir: 'out',
        },
        include: ['*.mts', '*.cts'],
      }),
    );
    await npm(['install', '--prefer-offline', join(dir, info.filename)], project);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules/@engram/client/package.json'), 'utf8'));
    expect(manifest.name).toBe('@engram/client');
    for (const entry of ['esm/client.js', 'cjs/client.js']) {
      expect(readFileSync(join(project, 'node_modules/@engram/client/dist', entry), 'utf8')).not.toMatch(/from ['"]node:|require\(['"]node:/);
    }

    const compiled = await exec(process.execPath, [TSC, '-p', project]).catch((e: { stdout: string }) => e);
    expect((compiled as { stdout: string }).stdout).toBe('');

    const env = { ENGRAM_URL: t.url, ENGRAM_API_KEY: t.key };
    const esm = await node(['out/main.mjs'], project, env);
    expect(esm.stdout).toContain('ALL OK');
    const cjs = await node(['out/require.cjs'], project, env);
    expect(cjs.stdout).toContain('CJS OK');
  }, 120_000);

  it('the integrations, packed and installed beside it with their frameworks, load as ESM and CJS and run', async () => {
    expect(clientTarball, 'the client test packed it').toBeTruthy();
    const tarballs = [clientTarball];
    for (const name of ['ai-sdk', 'langchain']) {
      const packed = await npm(['pack', '--json', '--pack-destination', dir], join(PACKAGE, '..', name));
      tarballs.push(join(dir, (JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[])[0].filename));
    }
    const project = join(dir, 'integrations');
    cpSync(new URL('./packed/integrations.mjs', import.meta.url), join(project, 'integrations.mjs'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'engram-integrations-smoke', private: true, type: 'module' }));
    await npm(['install', '--prefer-offline', ...tarballs, 'ai@^7', '@langchain/core@^1', 'zod@^4'], project);
    // Each integration uses the client installed beside it, not a copy of its own.
    for (const name of ['ai-sdk', 'langchain']) expect(existsSync(join(project, 'node_modules/@engram', name, 'node_modules'))).toBe(false);

    const env = { ENGRAM_URL: t.url, ENGRAM_API_KEY: t.key };
    expect((await node(['integrations.mjs'], project, env)).stdout).toContain('INTEGRATIONS OK');
    const required = await node(['-e', 'console.log(Object.keys(require("@engram/ai-sdk")).sort().join(), Object.keys(require("@engram/langchain")).sort().join())'], project, env);
    expect(required.stdout.trim()).toBe('engramMiddleware,engramTools EngramChatMessageHistory,EngramRetriever');
  }, 120_000);
});
