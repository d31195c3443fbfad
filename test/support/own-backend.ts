import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../backends/ports.js';
import { answers, command, urlOf, type ServiceName } from '../../backends/services.js';

type Name = ServiceName;
const STARTUP_MS: Record<Name, number> = { redis: 30_000, mongodb: 30_000, elasticsearch: 180_000 };

/**
 * A redis-server, FerretDB or Elasticsearch node of one test file's (or the soak's) own, on a free port, which the test kills and starts again on the
 * same port and data folder: the servers of `npm run backends:up` are shared by every other file (and developer).
 * Redis runs as production should, with the append-only file synced on every write, so a killed Redis comes back
 * with everything it acknowledged.
 */
export class OwnBackend {
  private child: ChildProcess | null = null;

  private constructor(
    readonly name: Name,
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(name: Name): Promise<OwnBackend> {
    const backend = new OwnBackend(name, await freePort(), mkdtempSync(join(tmpdir(), `engram-own-${name}-`)));
    if (name === 'mongodb') mkdirSync(join(backend.dir, 'data'));
    await backend.restart();
    return backend;
  }

  get url(): string {
    return urlOf(this.name, this.port);
  }

  /** Starts the server again (same port, same data) and waits until it answers. */
  async restart(): Promise<void> {
    const { cmd, args } = command(this.name, this.port, this.dir);
    const extra = this.name === 'redis' ? ['--appendonly', 'yes', '--appendfsync', 'always'] : [];
    const child = spawn(cmd, [...args, ...extra], { cwd: this.dir, stdio: 'ignore' });
    this.child = child;
    const deadline = Date.now() + STARTUP_MS[this.name];
    while (!(await answers(this.name, this.port))) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${this.name} did not start on port ${this.port}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Kills the server (SIGKILL: a crash, no shutdown work) and waits until it is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async close(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
