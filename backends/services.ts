import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readlinkSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { CACHE, ensureElasticsearch, ensureFerretDb, ensureRedis, log } from './install.js';
import { freePort } from './ports.js';

/**
 * The three servers of the production mode, started as local processes for development and tests.
 * Pids, ports and data folders are recorded in CACHE/run/state.json; `up` reuses what still runs and answers,
 * `down` stops exactly the recorded processes.
 */
export type ServiceName = 'redis' | 'mongodb' | 'elasticsearch';
export const SERVICES: ServiceName[] = ['redis', 'mongodb', 'elasticsearch'];

interface ServiceState {
  pid: number;
  port: number;
  /** Data folder; kept across a stop/start of the same service, removed by `down`. */
  dir: string;
}
type State = Partial<Record<ServiceName, ServiceState>>;

export interface BackendUrls {
  REDIS_URL: string;
  MONGODB_URL: string;
  ELASTICSEARCH_URL: string;
}

const RUN_DIR = join(CACHE, 'run');
const STATE_FILE = join(RUN_DIR, 'state.json');
const LOCK_FILE = join(RUN_DIR, 'lock');

export function urlOf(name: ServiceName, port: number): string {
  if (name === 'redis') return `redis://127.0.0.1:${port}`;
  if (name === 'mongodb') return `mongodb://127.0.0.1:${port}/`;
  return `http://127.0.0.1:${port}`;
}

export function readState(): State {
  try {
    return JSON.parse(readFileSync(STATE_FILE, 'utf8')) as State;
  } catch {
    return {};
  }
}

function writeState(state: State): void {
  mkdirSync(RUN_DIR, { recursive: true });
  writeFileSync(STATE_FILE, `${JSON.stringify(state, null, 2)}\n`);
}

/**
 * Alive and still the process we started, not a recycled pid: each service runs with its data folder as working
 * directory (the command line is no proof: redis-server rewrites its process title).
 */
function isOurs(entry: ServiceState): boolean {
  try {
    return alive(entry.pid) && realpathSync(readlinkSync(`/proc/${entry.pid}/cwd`)) === realpathSync(entry.dir);
  } catch {
    return false;
  }
}


/** One probe: resolves true when the server answers a real request. */
export async function answers(name: ServiceName, port: number): Promise<boolean> {
  try {
    if (name === 'redis') {
      const redis = new Redis(urlOf(name, port), { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000 });
      redis.on('error', () => undefined); // a refused probe is an answer of its own: not yet
      try {
        await redis.connect();
        return (await redis.ping()) === 'PONG';
      } finally {
        redis.disconnect();
      }
    }
    if (name === 'mongodb') {
      const client = new MongoClient(urlOf(name, port), { serverSelectionTimeoutMS: 1000, connectTimeoutMS: 1000 });
      try {
        await client.connect();
        return (await client.db('admin').command({ ping: 1 })).ok === 1;
      } finally {
        await client.close();
      }
    }
    const res = await fetch(`${urlOf(name, port)}/_cluster/health?wait_for_status=yellow&timeout=1s`, { signal: AbortSignal.timeout(3000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** How a service is launched on `port` with `dir` as its data folder (and working directory). */
export function command(name: ServiceName, port: number, dir: string): { cmd: string; args: string[] } {
  if (name === 'redis') {
    return { cmd: ensureRedis(), args: ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'] };
  }
  if (name === 'mongodb') {
    return {
      cmd: ensureFerretDb(),
      args: [
        '--handler=sqlite',
        `--sqlite-url=file:${join(dir, 'data')}/`,
        `--state-dir=${dir}`,
        `--listen-addr=127.0.0.1:${port}`,
        '--debug-addr=-',
        '--telemetry=disable',
        '--log-level=warn',
      ],
    };
  }
  const { classpath, java } = ensureElasticsearch();
  const heap = process.env.ENGRAM_BACKENDS_ES_HEAP?.trim() || '768m';
  return { cmd: java, args: [`-Xms${heap}`, `-Xmx${heap}`, '-XX:+UseSerialGC', '-cp', classpath, 'engram.backends.ElasticsearchLauncher', String(port), dir] };
}

const STARTUP_MS: Record<ServiceName, number> = { redis: 15_000, mongodb: 30_000, elasticsearch: 180_000 };

/** Starts one service detached (it outlives this process), waits until it answers, records it. */
export async function startService(name: ServiceName, reuse?: { port: number; dir: string }): Promise<ServiceState> {
  const port = reuse?.port ?? (await freePort());
  const dir = reuse?.dir ?? mkdtempSync(join(tmpdir(), `engram-${name}-`));
  if (name === 'mongodb') mkdirSync(join(dir, 'data'), { recursive: true });
  const { cmd, args } = command(name, port, dir);
  const logFile = join(dir, `${name}.log`);
  const out = openSync(logFile, 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out], cwd: dir });
  closeSync(out);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code ?? -1)));
  child.unref();
  const entry: ServiceState = { pid: child.pid!, port, dir };
  updateState((state) => ({ ...state, [name]: entry }));

  const started = Date.now();
  let exitCode: number | null = null;
  void exited.then((code) => (exitCode = code));
  while (!(await answers(name, port))) {
    if (exitCode !== null || Date.now() - started > STARTUP_MS[name]) {
      const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-3000) : '';
      await stopService(name);
      throw new Error(`${name} did not start (${exitCode !== null ? `exited with ${exitCode}` : 'timed out'}); log ${logFile}:\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`${name} answers on ${urlOf(name, port)} after ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${entry.pid})`);
  return entry;
}

/** Stops one recorded service (SIGTERM, then SIGKILL after a grace period); keeps its data folder unless asked. */
export async function stopService(name: ServiceName, options: { removeData?: boolean; graceMs?: number } = {}): Promise<void> {
  const entry = readState()[name];
  if (!entry) return;
  if (isOurs(entry)) {
    signalGroup(entry.pid, 'SIGTERM');
    const deadline = Date.now() + (options.graceMs ?? 30_000);
    while (alive(entry.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive(entry.pid)) signalGroup(entry.pid, 'SIGKILL');
    while (alive(entry.pid)) await new Promise((r) => setTimeout(r, 50));
  }
  if (options.removeData) {
    rmSync(entry.dir, { recursive: true, force: true });
    updateState((state) => {
      const { [name]: _removed, ...rest } = state;
      return rest;
    });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped by its parent) counts as gone.
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}

/** The service was started detached, as its own process group leader: signal the group (the JVM has no children, but be exact). */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function updateState(change: (state: State) => State): void {
  writeState(change(readState()));
}

/** Serialises concurrent `up`/`down` calls (a stale lock of a dead process is taken over). */
async function withLock<T>(operation: () => Promise<T>): Promise<T> {
  mkdirSync(RUN_DIR, { recursive: true });
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      writeFileSync(LOCK_FILE, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      const holder = Number(readFileSync(LOCK_FILE, 'utf8'));
      if (!holder || !alive(holder)) {
        rmSync(LOCK_FILE, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another backends command (pid ${holder}) holds ${LOCK_FILE}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await operation();
  } finally {
    try {
      unlinkSync(LOCK_FILE);
    } catch {
      // removed already
    }
  }
}

/** Idempotent: reuses every recorded service that still runs and answers, starts the others. */
export async function up(): Promise<BackendUrls> {
  return withLock(async () => {
    // Install first (slow, once) so the servers start back to back.
    ensureRedis();
    ensureFerretDb();
    ensureElasticsearch();
    const ports = {} as Record<ServiceName, number>;
    await Promise.all(
      SERVICES.map(async (name) => {
        const entry = readState()[name];
        if (entry && isOurs(entry) && (await answers(name, entry.port))) {
          ports[name] = entry.port;
          return;
        }
        if (entry) await stopService(name, { removeData: true });
        ports[name] = (await startService(name)).port;
      }),
    );
    return { REDIS_URL: urlOf('redis', ports.redis), MONGODB_URL: urlOf('mongodb', ports.mongodb), ELASTICSEARCH_URL: urlOf('elasticsearch', ports.elasticsearch) };
  });
}

/** Stops exactly the recorded processes and removes their data folders. */
export async function down(): Promise<ServiceName[]> {
  return withLock(async () => {
    const state = readState();
    const stopped = SERVICES.filter((name) => state[name] && isOurs(state[name]!));
    await Promise.all(SERVICES.map((name) => stopService(name, { removeData: true })));
    rmSync(STATE_FILE, { force: true });
    return stopped;
  });
}

/** URLs of the services recorded as running and answering, or null when any is missing. */
export async function running(): Promise<BackendUrls | null> {
  const state = readState();
  for (const name of SERVICES) {
    const entry = state[name];
    if (!entry || !isOurs(entry) || !(await answers(name, entry.port))) return null;
  }
  return { REDIS_URL: urlOf('redis', state.redis!.port), MONGODB_URL: urlOf('mongodb', state.mongodb!.port), ELASTICSEARCH_URL: urlOf('elasticsearch', state.elasticsearch!.port) };
}
