import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Python tools used by tests live: outside the repository, reused across runs. */
export const PYTHON_CACHE = process.env.ENGRAM_CACHE ?? join(homedir(), '.cache', 'engram');

export function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 600_000) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    // Outside the repository: tools such as hypothesis drop caches in their working directory.
    const child = spawn(command, args, { cwd: tmpdir(), env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, out: String(error) });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/**
 * A virtual environment `name` with `requirement` installed from PyPI. Resolves to
 * the venv's bin folder, or to a skip reason when PyPI cannot be reached; any other
 * failure (no python3, no venv module) throws, so a broken set-up is never a skip.
 */
export async function pythonTool(name: string, requirement: string): Promise<{ bin: string } | { skip: string }> {
  const venv = join(PYTHON_CACHE, name);
  const bin = join(venv, 'bin');
  if (!existsSync(join(bin, 'python'))) {
    mkdirSync(PYTHON_CACHE, { recursive: true });
    const made = await run('python3', ['-m', 'venv', venv]);
    if (made.code !== 0) throw new Error(`python3 -m venv failed (apt-get install python3-venv, as scripts/test-prerequisites.sh does):\n${made.out}`);
  }
  const installed = await run(join(bin, 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', requirement], {
    PIP_CACHE_DIR: join(PYTHON_CACHE, 'pip-cache'),
  });
  if (installed.code === 0) return { bin };
  if (/Network|connection|resolve|Temporary failure|No matching distribution|timed out|unreachable/i.test(installed.out)) {
    return { skip: `PyPI unreachable, ${requirement} not installed:\n${installed.out.slice(-500)}` };
  }
  throw new Error(`pip install ${requirement} failed:\n${installed.out}`);
}
