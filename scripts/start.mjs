// `npm start`, `npm run worker`, `npm run admin`: runs an entry point from dist/, compiling
// first when a source is newer than the last build (so `npm ci && npm start` stays the whole set-up).
//   node scripts/start.mjs api/main [args…]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, compile, isStale } from './build.mjs';

const entry = process.argv[2];
if (!entry) {
  process.stderr.write('usage: node scripts/start.mjs <entry, e.g. api/main> [args…]\n');
  process.exit(2);
}
if (isStale()) {
  const { files, ms } = await compile();
  process.stderr.write(`engram: compiled ${files} files in ${ms} ms\n`);
}
// The entry point sees its own arguments at process.argv[2…], as when run directly.
process.argv.splice(2, 1);
await import(pathToFileURL(join(DIST, `${entry}.js`)).href);
