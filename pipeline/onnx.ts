import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type OnnxRuntime = typeof import('onnxruntime-node');

/** onnxruntime-node, or an error that names the setting that needs it (`purpose`, e.g. "EXTRACTOR=model"). */
export async function importOnnxRuntime(purpose: string): Promise<OnnxRuntime> {
  try {
    return await import('onnxruntime-node');
  } catch (error) {
    throw new Error(`${purpose} needs onnxruntime-node, which could not be loaded (npm ci installs it): ${(error as Error).message}`);
  }
}

/**
 * models/<name> in the nearest folder above this module that has it (recognised by `marker`): the repository's
 * shipped models from the sources and from dist/ alike.
 */
export function shippedModelDir(name: string, marker: string): string {
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'models', name);
    if (existsSync(join(candidate, marker))) return candidate;
    if (dirname(dir) === dir) return join(start, '../models', name);
  }
}
