import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest package.json above this module: the repository root from the sources and from dist/. */
function findPackageJson(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('package.json not found above core/version');
  }
}

/** Engram's version, as package.json states it. */
export const ENGRAM_VERSION: string = (JSON.parse(readFileSync(findPackageJson(), 'utf8')) as { version: string }).version;
