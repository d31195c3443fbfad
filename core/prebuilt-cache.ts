import { copyFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import { GLOVE_CACHE_FILE } from '../pipeline/embedding/glove-cache.js';
import { gloveCachePath } from '../pipeline/embedding/index.js';

/** Where `npm run build` (run by `npm ci`) leaves rebuildable caches: node_modules/.cache/engram. */
async function prebuiltCacheDir(): Promise<string | null> {
  // Sources live at <root>/core, compiled files at <root>/dist/core: look a few levels up.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', '.cache', 'engram');
    if (await exists(join(candidate, GLOVE_CACHE_FILE))) return candidate;
  }
  return null;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

/**
 * A first start on an empty data folder copies the GloVe cache built at install time instead of building it
 * (several seconds); the embedder still validates the file and rebuilds a bad one. EMBEDDER=model joins GloVe too,
 * so every embedder but openai and onnx needs it.
 */
export async function seedPrebuiltCaches(config: Pick<Config, 'EMBEDDER' | 'DATA_DIR' | 'CACHE_DIR'>): Promise<void> {
  if (config.EMBEDDER === 'openai' || config.EMBEDDER === 'onnx') return;
  const target = gloveCachePath(config.DATA_DIR, { cacheDir: config.CACHE_DIR });
  if (await exists(target)) return;
  const source = await prebuiltCacheDir();
  if (!source) return;
  await mkdir(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.seed`;
  await copyFile(join(source, GLOVE_CACHE_FILE), partial);
  // Rename is atomic: a concurrent start sees either no file or a whole one.
  await rename(partial, target);
}
