// Compiles the TypeScript sources ahead of time into dist/ (one .js file per source file, same
// layout, so `new URL('./x.js', import.meta.url)` works as in the sources), then builds the
// default embedder's cache once per install. Run by `npm ci` (prepare) and by `npm start` when
// a source is newer than the last build.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST = join(ROOT, 'dist');
export const STAMP = join(DIST, '.build-stamp');
export const SOURCE_DIRS = ['api', 'composition', 'core', 'pipeline', 'storage', 'workers'];
/** Rebuildable files made at install time (the GloVe cache), copied into a data folder's cache on first start. */
export const PREBUILT_CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'engram');

/** Every compiled source: .ts files outside tests. */
export function sourceFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) if (existsSync(join(ROOT, dir))) walk(join(ROOT, dir));
  return out;
}

/** True when dist/ is missing or older than a source file (or than package.json). */
export function isStale() {
  if (!existsSync(STAMP)) return true;
  const built = statSync(STAMP).mtimeMs;
  return [join(ROOT, 'package.json'), ...sourceFiles()].some((f) => statSync(f).mtimeMs > built);
}

export async function compile() {
  const started = Date.now();
  const entryPoints = sourceFiles();
  await build({
    entryPoints,
    outdir: DIST,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  return { files: entryPoints.length, ms: Date.now() - started };
}

/** Builds the GloVe cache where first starts copy it from (a few seconds, once per install). */
export async function prebuildCaches() {
  const { ensureGloveCache } = await import(join(DIST, 'pipeline', 'embedding', 'glove-cache.js'));
  const started = Date.now();
  const path = await ensureGloveCache(PREBUILT_CACHE_DIR, { cacheDir: PREBUILT_CACHE_DIR });
  return { cache: relative(ROOT, path), ms: Date.now() - started };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // `prepare` also runs where only package.json is present (the Dockerfile's dependency layer): nothing to build yet.
  if (process.argv.includes('--if-sources') && sourceFiles().length === 0) process.exit(0);
  const compiled = await compile();
  const cache = process.argv.includes('--no-cache') ? null : await prebuildCaches();
  process.stderr.write(`engram build: ${compiled.files} files in ${compiled.ms} ms${cache ? `; ${cache.cache} ready in ${cache.ms} ms` : ''}\n`);
}
