import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { ApiError } from '../../core/errors.js';
import { memoryInputSchema } from '../routes/memories/schema.js';
import { validate } from '../validation.js';
import { readRows, type InputFormat } from './readers.js';
import { loadState, saveState, type ImportState } from './state.js';

/**
 * `npm run --silent import -- <file> --url <base> --key <key>`: sends a JSON Lines,
 * JSON array or CSV file to `POST /v1/batch` in batches of up to 500, in file order.
 * A row that fails validation is reported with its line and skipped; progress is a
 * bar on a terminal and one JSON line per batch otherwise; the state file lets an
 * interrupted import resume without sending a row twice.
 */

const MAX_BATCH = 500;
const usage = 'usage: npm run --silent import -- <file> [--url <base>] [--key <key>] [--state <file>] [--format jsonl|json|csv] [--batch-size N] [--restart] [--progress bar|json]';

class Fatal extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

interface Item {
  line: number;
  memory: unknown;
}

function options() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      state: { type: 'string' },
      format: { type: 'string' },
      'batch-size': { type: 'string' },
      restart: { type: 'boolean', default: false },
      progress: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new Fatal(usage, 2);
  const key = values.key ?? process.env.ENGRAM_API_KEY;
  if (!key) throw new Fatal(`an API key is required: --key or ENGRAM_API_KEY\n${usage}`, 2);
  const batchSize = Number(values['batch-size'] ?? MAX_BATCH);
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH) throw new Fatal(`--batch-size must be an integer from 1 to ${MAX_BATCH}`, 2);
  if (values.format && !['jsonl', 'json', 'csv'].includes(values.format)) throw new Fatal('--format must be jsonl, json or csv', 2);
  if (values.progress && !['bar', 'json'].includes(values.progress)) throw new Fatal('--progress must be bar or json', 2);
  const file = positionals[0];
  return {
    file,
    url: (values.url ?? process.env.ENGRAM_URL ?? 'http://localhost:8080').replace(/\/+$/, ''),
    key,
    statePath: values.state ?? `${file}.import-state.json`,
    format: values.format as InputFormat | undefined,
    batchSize,
    restart: values.restart,
    progress: (values.progress ?? (process.stderr.isTTY ? 'bar' : 'json')) as 'bar' | 'json',
  };
}

/** Stops at the next safe point on the first Ctrl-C; a second one exits at once. */
class StopSignal {
  stopping = false;
  private stoppedAt = 0;
  private wake: (() => void) | null = null;

  constructor() {
    process.on('SIGINT', () => {
      // The terminal signals the whole process group and npm/tsx relay it too: one Ctrl-C can arrive twice.
      if (this.stopping && Date.now() - this.stoppedAt > 1000) process.exit(130);
      if (this.stopping) return;
      this.stopping = true;
      this.stoppedAt = Date.now();
      this.wake?.();
    });
  }

  /** Waits `ms` unless a stop is requested first. */
  sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const self = this;
      function done() {
        clearTimeout(timer);
        self.wake = null;
        resolve();
      }
      this.wake = done;
    });
  }
}

class Progress {
  private bar: cliProgress.SingleBar | null = null;
  private readonly problems: string[] = [];

  constructor(
    private readonly mode: 'bar' | 'json',
    total: number,
    done: number,
  ) {
    if (mode === 'bar') {
      this.bar = new cliProgress.SingleBar(
        { format: 'importing {bar} {percentage}% | {value}/{total} rows | {sent} sent, {skipped} skipped', stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(total, done, { sent: 0, skipped: 0 });
    }
  }

  line(event: Record<string, unknown>): void {
    if (this.mode === 'json') process.stdout.write(`${JSON.stringify(event)}\n`);
  }

  problem(line: number, message: string): void {
    if (this.mode === 'json') this.line({ event: 'problem', line, message });
    else this.problems.push(`line ${line}: ${message}`);
  }

  update(state: ImportState): void {
    this.bar?.update(state.done, { sent: state.sent, skipped: state.skipped });
  }

  finish(summary: Record<string, unknown>, message: string): void {
    if (this.bar) {
      this.bar.stop();
      for (const p of this.problems) process.stderr.write(`${p}\n`);
      process.stderr.write(`${message}\n`);
    } else this.line(summary);
  }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function post(url: string, key: string, body: unknown): Promise<{ status: number; body: any; retryAfter: number | null }> {
  const res = await fetch(`${url}/v1/batch`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { code: 'invalid_response', message: text.slice(0, 200) };
  }
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, body: parsed, retryAfter: retryAfter === null ? null : Number(retryAfter) };
}

const refusedConnection = (error: any) => ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(error?.cause?.code ?? error?.code);

async function main(): Promise<number> {
  const opts = options();
  const stop = new StopSignal();
  let text: string;
  try {
    text = readFileSync(opts.file, 'utf8');
  } catch (error) {
    throw new Fatal(`cannot read ${opts.file}: ${(error as Error).message}`, 2);
  }
  let rows;
  try {
    rows = readRows(opts.file, text, opts.format);
  } catch (error) {
    throw new Fatal(`cannot parse ${opts.file}: ${(error as Error).message}`, 2);
  }
  const source = { path: opts.file, sha256: sha256(text), rows: rows.length };

  let state = opts.restart ? null : loadState(opts.statePath);
  if (state && (state.source.sha256 !== source.sha256 || state.source.rows !== source.rows)) {
    throw new Fatal(`${opts.file} changed since ${opts.statePath} was written; pass --restart to import it from the beginning`, 2);
  }
  if (state?.pending) {
    process.stderr.write(
      `warning: the previous run was killed while lines ${state.pending.first_line}-${state.pending.last_line} were being sent; they may have been stored and are sent again\n`,
    );
    state.pending = null;
  }
  state ??= { source, url: opts.url, done: 0, sent: 0, skipped: 0, batches: [], pending: null, completed: false };
  const progress = new Progress(opts.progress, rows.length, state.done);
  const summary = () => ({ event: 'done', rows: rows.length, sent: state!.sent, skipped: state!.skipped, batches: state!.batches.length, state: opts.statePath });

  if (state.completed) {
    progress.finish({ ...summary(), already_completed: true }, `already imported (${opts.statePath})`);
    return 0;
  }

  while (state.done < rows.length) {
    // Next batch: valid rows in file order; invalid ones are reported and skipped.
    const items: Item[] = [];
    let end = state.done;
    let skipped = 0;
    while (end < rows.length && items.length < opts.batchSize) {
      const row = rows[end++];
      try {
        if (row.value instanceof Error) throw new ApiError(422, 'invalid_request', row.value.message);
        items.push({ line: row.line, memory: validate(memoryInputSchema, row.value) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        progress.problem(row.line, error.message);
        skipped++;
      }
    }

    let accepted: { id: string } | null = null;
    let attempt = 0;
    while (items.length > 0 && accepted === null) {
      if (stop.stopping) break;
      state.pending = { first_line: items[0].line, last_line: items[items.length - 1].line, items: items.length };
      saveState(opts.statePath, state);
      let res;
      try {
        res = await post(opts.url, opts.key, { memories: items.map((i) => i.memory) });
      } catch (error) {
        if (!refusedConnection(error) || ++attempt > 5) {
          throw new Fatal(`sending lines ${state.pending.first_line}-${state.pending.last_line} failed: ${(error as Error).message}; rerun to resume`);
        }
        state.pending = null; // never reached the server
        await stop.sleep(1000 * 2 ** attempt);
        continue;
      }
      state.pending = null;
      if (res.status === 202) accepted = res.body;
      else if (res.status === 429 && res.retryAfter !== null && Number.isFinite(res.retryAfter)) {
        await stop.sleep(Math.max(res.retryAfter, 0.1) * 1000);
      } else if (res.status === 503 && ++attempt <= 5) {
        await stop.sleep(1000 * 2 ** attempt); // nothing was stored (queue or counters unavailable)
      } else if (res.status === 422 && /^memories\[(\d+)\]/.test(res.body?.message ?? '')) {
        // The server refuses the whole batch for one item: report that row and send the rest.
        const index = Number(/^memories\[(\d+)\]/.exec(res.body.message)![1]);
        const [bad] = items.splice(index, 1);
        progress.problem(bad.line, res.body.message.replace(/^memories\[\d+\]\.?/, '') || res.body.message);
        skipped++;
      } else {
        saveState(opts.statePath, state);
        throw new Fatal(`the server refused lines ${items[0].line}-${items[items.length - 1].line}: ${res.status} ${res.body?.code}: ${res.body?.message}; rerun to resume`);
      }
    }
    if (stop.stopping && accepted === null && items.length > 0) break;

    state.done = end;
    state.skipped += skipped;
    if (accepted) {
      state.sent += items.length;
      state.batches.push({ id: accepted.id, first_line: items[0].line, last_line: items[items.length - 1].line, items: items.length });
    }
    saveState(opts.statePath, state);
    progress.update(state);
    if (accepted) {
      progress.line({
        event: 'batch',
        batch: state.batches.length,
        batch_id: accepted.id,
        first_line: items[0].line,
        last_line: items[items.length - 1].line,
        items: items.length,
        done: state.done,
        total: rows.length,
        sent: state.sent,
        skipped: state.skipped,
      });
    }
    if (stop.stopping) break;
  }

  if (state.done < rows.length) {
    saveState(opts.statePath, state);
    progress.finish({ ...summary(), event: 'interrupted', done: state.done }, `interrupted after ${state.done} of ${rows.length} rows; rerun the same command to resume`);
    return 130;
  }
  state.completed = true;
  saveState(opts.statePath, state);
  progress.finish(summary(), `imported ${state.sent} memories in ${state.batches.length} batches; ${state.skipped} rows skipped`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error instanceof Fatal ? error.message : (error?.stack ?? error)}\n`);
    process.exit(error instanceof Fatal ? error.exitCode : 1);
  },
);
