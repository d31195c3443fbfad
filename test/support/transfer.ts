import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { ApiClient } from './server.js';
import { waitFor } from './wait.js';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * `npm run --silent admin -- …`'s entry point with `env` (the server URLs only when `env` has them: `npm run
 * test:backends` sets them in this process): exit status, stderr and the last stdout line parsed.
 */
export function admin(env: Record<string, string>, ...args: string[]): { status: number | null; stderr: string; result: any } {
  const { MONGODB_URL: _m, ELASTICSEARCH_URL: _e, REDIS_URL: _r, ...inherited } = process.env;
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'admin', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 300_000,
  });
  const lines = run.stdout.trim().split('\n');
  let result: any = null;
  try {
    result = JSON.parse(lines[lines.length - 1]);
  } catch {
    result = null;
  }
  return { status: run.status, stderr: run.stderr, result };
}

/** `admin` without blocking this process's event loop (a server in this process keeps serving meanwhile). */
export function adminAsync(env: Record<string, string>, ...args: string[]): Promise<{ status: number | null; stderr: string; result: any }> {
  const { MONGODB_URL: _m, ELASTICSEARCH_URL: _e, REDIS_URL: _r, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'api', 'admin', 'cli.ts'), ...args], {
    cwd: ROOT,
    env: { ...inherited, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (status) => {
      const lines = stdout.trim().split('\n');
      let result: any = null;
      try {
        result = JSON.parse(lines[lines.length - 1]);
      } catch {
        result = null;
      }
      resolve({ status, stderr, result });
    }),
  );
}

/**
 * Writes a small workspace with every kind of record through the API: two agent namespaces, a memory that is
 * updated (history, a fact timeline with an invalidated fact), an entity with an alias, a forgotten memory (stub),
 * a fact written directly, and the audit rows these leave.
 */
export async function seedWorkspace(api: ApiClient, settle: () => Promise<void>): Promise<{ updated: string; forgotten: string }> {
  const ok = (r: { status: number; body: any }) => {
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const home = ok(await api.post('/v1/memories', { content: 'I live in Bergen.', user_id: 'maya', timestamp: '2021-03-01T10:00:00.000Z', metadata: { topic: 'home' } }));
  ok(await api.post('/v1/memories', { content: 'My sister Anna works at Equinor.', user_id: 'maya', metadata: { topic: 'family' } }));
  ok(await api.post('/v1/memories', { content: 'I prefer green tea in the morning.', user_id: 'maya', agent_id: 'barista' }));
  ok(await api.post('/v1/memories', { content: 'I moved to Oslo and now live there.', user_id: 'maya', timestamp: '2023-06-01T10:00:00.000Z' }));
  const gone = ok(await api.post('/v1/memories', { content: 'My gym code is 4711.', user_id: 'tom' }));
  ok(await api.post('/v1/facts', { subject: 'maya', predicate: 'likes', object: 'skiing', user_id: 'maya', subject_type: 'person', valid_from: '2020-01-01T00:00:00.000Z' }));
  await settle();
  ok(await api.patch(`/v1/memories/${home.id}`, { content: 'I live in Bergen, near the harbour.' }));
  await settle();
  ok(await api.delete(`/v1/memories/${gone.id}`));
  await settle();
  return { updated: home.id, forgotten: gone.id };
}

/** What the API shows of a workspace: memories (with facts), their histories, every fact, agents, audit, a search and a context block. */
export async function workspaceView(api: ApiClient, ids: { updated: string; forgotten: string }, options: { crossMode?: boolean } = {}) {
  const get = async (path: string) => {
    const r = await api.get(path);
    expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
    return r.body;
  };
  const memories = await get('/v1/memories?limit=200');
  const histories: Record<string, unknown> = {};
  for (const m of [...memories.memories.map((m: any) => m.id), ids.forgotten]) histories[m] = await get(`/v1/memories/${m}/history`);
  const forgotten = await api.get(`/v1/memories/${ids.forgotten}`);
  return {
    memories,
    histories,
    forgotten: { status: forgotten.status, body: forgotten.body },
    facts: await get('/v1/facts?include_invalidated=true&limit=200'),
    factsAsOf2022: await get('/v1/facts?user_id=maya&as_of=2022-01-01T00:00:00.000Z&limit=200'),
    sister: await get('/v1/facts?user_id=maya&entity=sister&limit=200'),
    agents: await get('/v1/agents'),
    users: await get('/v1/users'),
    audit: await get('/v1/audit?limit=200'),
    search: (await api.post('/v1/memories/search', { query: 'where does she live', user_id: 'maya', limit: 3 })).body.results.map((r: any) => ({
      ...r,
      // Elasticsearch scores cosine as (1 + cos) / 2 in float32: equal to the exact score to about 1e-7
      score: options.crossMode ? Math.round(r.score * 1e4) / 1e4 : r.score,
    })),
    // The keyword side ranks by BM25 in FTS5 or Lucene, whose statistics differ (test/backends/parity.test.ts): compared within a mode only.
    context: options.crossMode ? null : await get('/v1/context?query=home%20city&user_id=maya'),
  };
}

/** An export file's lines (gunzipped when needed). */
export function exportLines(file: string): any[] {
  let bytes = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
}

/**
 * Two exports of the same workspace, compared line by line: everything but the header's time and Engram version,
 * the end line's checksum (which covers the header), and keys, compared apart: every key of `a` is in `b` with
 * the same metadata, revoked (a restored key has no secret); `b` may have keys made after the restore.
 */
export function expectSameExport(a: string, b: string, options: { vectors: 'same' | 'ids' } = { vectors: 'same' }) {
  const normalise = (lines: any[]) =>
    lines
      .filter((l) => l.kind !== 'key')
      .map((l, i) => {
        if (i === 0) return { ...l, created_at: null, engram_version: null, counts: { ...l.counts, key: null }, ...(options.vectors === 'ids' ? { embedder: null } : {}) };
        if (l.end) return { end: l.end };
        if (l.kind === 'vector' && options.vectors === 'ids') return { kind: 'vector', id: l.id };
        return l;
      });
  const [left, right] = [exportLines(a), exportLines(b)];
  expect(normalise(right)).toEqual(normalise(left));
  const keys = new Map(right.filter((l) => l.kind === 'key').map((l) => [l.record.id, l.record]));
  const before = left.filter((l) => l.kind === 'key').map((l) => l.record);
  expect(before.length).toBeGreaterThan(0);
  for (const key of before) {
    expect(keys.get(key.id)).toEqual({ ...key, revokedAt: key.revokedAt ?? expect.any(String) });
    expect(keys.get(key.id).revokedAt).not.toBeNull();
  }
}

export const waitUntil = waitFor;
