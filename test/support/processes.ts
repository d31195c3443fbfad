import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export type OutputProcess = ChildProcess & { output: () => string };

/** Starts `npm run worker`'s entry point as a real child process. */
export function startWorkerProcess(env: Record<string, string>): OutputProcess {
  return startEntryPoint(join('workers', 'main.ts'), env);
}

/** Starts `npm start`'s entry point as a real child process on an ephemeral port; resolves with its URL. */
export async function startApiProcess(env: Record<string, string>): Promise<{ child: OutputProcess; url: string }> {
  const child = startEntryPoint(join('api', 'main.ts'), { PORT: '0', HOST: '127.0.0.1', ...env });
  await waitForOutput(child, '"url":"');
  return { child, url: /"url":"([^"]+)"/.exec(child.output())![1] };
}

function startEntryPoint(entry: string, env: Record<string, string>): OutputProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, entry)], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

/** Resolves once the process has printed `text` (or rejects on exit/timeout). */
export function waitForOutput(child: OutputProcess, text: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (child.output().includes(text)) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null || Date.now() > deadline) {
        clearInterval(timer);
        reject(new Error(`process did not print "${text}":\n${child.output().slice(-2000)}`));
      }
    }, 25);
    const deadline = Date.now() + timeoutMs;
  });
}

export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** A worker process that has connected and taken its queues (it logs "engram worker started" at level info). */
export async function startReadyWorker(env: Record<string, string>, timeoutMs = 60_000): Promise<OutputProcess> {
  const worker = startWorkerProcess({ ...env, LOG_LEVEL: 'info' });
  try {
    await waitForOutput(worker, 'engram worker started', timeoutMs);
  } catch (error) {
    await stopProcess(worker, 'SIGKILL');
    throw error;
  }
  return worker;
}

/** The `npm run worker` processes of one test file: started ready, stopped together. */
export class WorkerProcesses {
  readonly running: OutputProcess[] = [];

  /** `env` is read at each start (test files build it in beforeAll). */
  constructor(private readonly env: () => Record<string, string>, private readonly timeoutMs = 60_000) {}

  async start(): Promise<OutputProcess> {
    const worker = await startReadyWorker(this.env(), this.timeoutMs);
    this.running.push(worker);
    return worker;
  }

  /** Stops one worker (SIGKILL to simulate a crash); by default the oldest. */
  async stop(worker = this.running[0], signal: NodeJS.Signals = 'SIGTERM'): Promise<OutputProcess> {
    this.running.splice(this.running.indexOf(worker), 1);
    await stopProcess(worker, signal);
    return worker;
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.running.splice(0).map((worker) => stopProcess(worker)));
  }
}
