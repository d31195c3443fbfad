#!/usr/bin/env node
// Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with its .d.ts, by running tsc twice, for the
// package in the current folder (the client, and the integrations beside it that share this script).
// A package.json in each folder tells Node and TypeScript which module format its files are.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.cwd();
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const client = fileURLToPath(new URL('..', import.meta.url));
// An integration compiles against the client's declarations: build the client first when they are missing.
const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
if ('@engram/client' in dependencies && !existsSync(join(client, 'dist/esm/index.d.ts'))) {
  execFileSync(process.execPath, [fileURLToPath(import.meta.url)], { cwd: client, stdio: 'inherit' });
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const [project, dir, type] of [
  ['tsconfig.json', 'esm', 'module'],
  ['tsconfig.cjs.json', 'cjs', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  mkdirSync(join(root, 'dist', dir), { recursive: true });
  writeFileSync(join(root, 'dist', dir, 'package.json'), `${JSON.stringify({ type })}\n`);
}
