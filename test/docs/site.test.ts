import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** The documentation site builds with VitePress (which fails on a dead link between pages) and has every page. */
const root = join(import.meta.dirname, '..', '..');
const out = mkdtempSync(join(tmpdir(), 'engram-docs-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the docs site', () => {
  it('builds every page of docs/', async () => {
    await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'vitepress', 'bin', 'vitepress.js'), 'build', 'docs', '--outDir', out], { cwd: root });
    const pages = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.length).toBeGreaterThanOrEqual(9);
    for (const page of pages) expect(existsSync(join(out, page.replace(/\.md$/, '.html'))), page).toBe(true);
  }, 120_000);
});
