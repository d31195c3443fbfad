#!/usr/bin/env node
// Builds dist/esm (ES modules) and dist/cjs (CommonJS), each with its .d.ts, by running tsc twice.
// A package.json in each folder tells Node and TypeScript which module format its files are.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
for (const [project, dir, type] of [
  ['tsconfig.json', 'esm', 'module'],
  ['tsconfig.cjs.json', 'cjs', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: root, stdio: 'inherit' });
  mkdirSync(new URL(`../dist/${dir}`, import.meta.url), { recursive: true });
  writeFileSync(new URL(`../dist/${dir}/package.json`, import.meta.url), `${JSON.stringify({ type })}\n`);
}
