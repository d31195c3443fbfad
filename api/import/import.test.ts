import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.js';

const repo = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'engram-import-'));

const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));

/** Runs the command asynchronously: the server under test lives in this process. */
async function runImport(args: string[], env: Record<string, string> = {}) {
  const child = spawn('npm', ['run', '--silent', 'import', '--', ...args], { cwd: repo, env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { status, stdout, stderr, events: lines(stdout) };
}

/** Every memory of a user, oldest first (waiting out the 1/s rate limit like any client). */
async function allMemories(t: TestServer, userId: string) {
  const out: any[] = [];
  for (let offset = 0; ; ) {
    const page = await t.api(checker).get(`/v1/memories?user_id=${userId}&limit=200&offset=${offset}`);
    if (page.status === 429) {
      await new Promise((r) => setTimeout(r, 1000 * Number(page.headers.get('retry-after') ?? 1)));
      continue;
    }
    out.push(...page.body.memories);
    offset += 200;
    if (out.length >= page.body.total) return out.reverse();
  }
}

let t: TestServer;
let checker: string;
beforeAll(async () => {
  // One request per second per key: batches after the first meet 429 with Retry-After.
  t = await startTestServer({ RATE_LIMIT_PER_SECOND: '1' }, { runWorkers: false });
  checker = (await t.keyFor({ workspace: 'test' })).key;
});
afterAll(() => t?.close());

describe('npm run import', () => {
  it('imports JSON Lines in ordered batches, reports bad rows by line, honours Retry-After, and resumes after Ctrl-C without resending', async () => {
    const file = join(dir, 'memories.jsonl');
    const rows: string[] = [];
    for (let i = 1; i <= 1300; i++) {
      if (i === 7) rows.push('{"content": "broken json"');
      else if (i === 640) rows.push(JSON.stringify({ content: '', user_id: 'imp' }));
      else if (i === 1201) rows.push(JSON.stringify({ content: 'x', user_id: 'imp', colour: 'blue' }));
      else rows.push(JSON.stringify({ content: `Import row ${i}`, user_id: 'imp', metadata: { row: i } }));
    }
    writeFileSync(file, `${rows.join('\n')}\n`);

    // First run: interrupted with Ctrl-C (SIGINT to the process group, as a terminal does) after its first batch.
    const child = spawn('npm', ['run', '--silent', 'import', '--', file, '--url', t.url], {
      cwd: repo,
      env: { ...process.env, ENGRAM_API_KEY: t.key },
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const firstBatch = new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('"event":"batch"')) resolve();
      }),
    );
    // 'close': every process writing to the pipe (npm and the import below it) has ended.
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await firstBatch;
    process.kill(-child.pid!, 'SIGINT');
    // npm itself dies of the signal (code null); the import below it exits cleanly after saving its state.
    await exited;
    const first = lines(stdout);
    const interrupted = first.find((e) => e.event === 'interrupted');
    expect(interrupted, stderr).toBeDefined();
    expect(first.filter((e) => e.event === 'batch').length).toBeLessThan(3);
    expect(first).toContainEqual({ event: 'problem', line: 7, message: expect.stringMatching(/invalid JSON/) });
    const state = JSON.parse(readFileSync(`${file}.import-state.json`, 'utf8'));
    expect(state.completed).toBe(false);
    expect(state.pending).toBeNull();
    expect(state.done).toBe(interrupted.done);

    // Second run resumes from the state file.
    const second = await runImport([file, '--url', t.url], { ENGRAM_API_KEY: t.key });
    expect(second.status, second.stderr).toBe(0);
    const batches = [...first, ...second.events].filter((e) => e.event === 'batch');
    expect(batches.map((b) => b.items)).toEqual([500, 500, 297]);
    expect(batches.map((b) => b.first_line)).toEqual([1, 502, 1003]);
    const problems = [...first, ...second.events].filter((e) => e.event === 'problem');
    expect(problems.map((p) => p.line)).toEqual(expect.arrayContaining([7, 640, 1201]));
    expect(problems.find((p) => p.line === 640).message).toBe('content: must not be empty');
    expect(problems.find((p) => p.line === 1201).message).toBe('colour: unknown field');
    expect(second.events.at(-1)).toEqual(expect.objectContaining({ event: 'done', rows: 1300, sent: 1297, skipped: 3, batches: 3 }));

    // Exactly once, in file order.
    const stored = await allMemories(t, 'imp');
    expect(stored).toHaveLength(1297);
    expect(new Set(stored.map((m) => m.content)).size).toBe(1297);
    const rowsInOrder = stored.map((m) => m.metadata.row);
    expect(rowsInOrder).toEqual([...rowsInOrder].sort((a, b) => a - b));

    // A third run has nothing left to do.
    const third = await runImport([file, '--url', t.url, '--key', t.key]);
    expect(third.status).toBe(0);
    expect(third.events.at(-1)).toEqual(expect.objectContaining({ event: 'done', already_completed: true }));
    expect(await allMemories(t, 'imp')).toHaveLength(1297);
  }, 180_000);

  it('reads CSV with metadata columns and a JSON array, naming lines', async () => {
    const csv = join(dir, 'notes.csv');
    writeFileSync(
      csv,
      'content,user_id,run_id,timestamp,metadata.source\n' +
        'I moved to Lisbon.,csv,r1,2024-03-01,crm\n' +
        '"A note that spans\ntwo lines",csv,,,\n' +
        'Bad date,csv,,not-a-date,\n',
    );
    const fromCsv = await runImport([csv, '--url', t.url, '--key', t.key]);
    expect(fromCsv.status, fromCsv.stderr).toBe(0);
    expect(fromCsv.events).toContainEqual({ event: 'problem', line: 5, message: 'timestamp: must be an ISO 8601 date or date-time' });
    const stored = await allMemories(t, 'csv');
    expect(stored.map((m) => m.content)).toEqual(['I moved to Lisbon.', 'A note that spans\ntwo lines']);
    expect(stored[0]).toEqual(expect.objectContaining({ run_id: 'r1', metadata: { source: 'crm' } }));

    const json = join(dir, 'notes.json');
    writeFileSync(json, '[\n  {"content": "first", "user_id": "arr"},\n  {"content": 42, "user_id": "arr"},\n  {"content": "third", "user_id": "arr"}\n]\n');
    const fromJson = await runImport([json, '--url', t.url, '--key', t.key]);
    expect(fromJson.status, fromJson.stderr).toBe(0);
    expect(fromJson.events).toContainEqual({ event: 'problem', line: 3, message: 'content: must be a string' });
    expect((await allMemories(t, 'arr')).map((m) => m.content)).toEqual(['first', 'third']);
  }, 60_000);

  it('stops with a message on a key the server refuses, and without a key', async () => {
    const file = join(dir, 'one.jsonl');
    writeFileSync(file, '{"content": "hello"}\n');
    const refused = await runImport([file, '--url', t.url, '--key', 'eng_wrong']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('401 invalid_key');
    const missing = await runImport([file, '--url', t.url], { ENGRAM_API_KEY: '' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('an API key is required');
  }, 60_000);
});
