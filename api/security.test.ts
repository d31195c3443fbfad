import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../core/logger.js';
import { startTestServer, type TestServer } from '../test/support/server.js';
import { sameSecret } from '../core/operator-auth.js';

/** Checks behind SECURITY.md (OWASP API Security Top 10, 2023). */
let t: TestServer;
let logFile: string;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'engram-security-'));
  logFile = join(tmpdir(), `engram-security-${process.pid}-${randomBytes(4).toString('hex')}.log`);
  const logger = createLogger('debug', 'engram', pino.destination({ dest: logFile, sync: true }));
  t = await startTestServer({}, { dataDir, logger });
});
afterAll(async () => {
  await t?.close();
  if (t) rmSync(t.dataDir, { recursive: true, force: true });
  rmSync(logFile, { force: true });
});

describe('API1 object-level authorization', () => {
  it('an agent-confined key cannot read the workspace audit log or another namespace’s batch', async () => {
    const confined = (await t.keyFor({ workspace: 'test', agentId: 'bot-a' })).key;
    const audit = await t.api(confined).get('/v1/audit');
    expect(audit.status).toBe(403);
    expect(audit.body.code).toBe('forbidden');
    const foreignBatch = await t.api().post('/v1/batch', { memories: [{ content: 'I work at Siemens.', agent_id: 'bot-b' }] });
    expect((await t.api(confined).get(`/v1/batch/${foreignBatch.body.id}`)).status).toBe(404);
    const ownBatch = await t.api(confined).post('/v1/batch', { memories: [{ content: 'I work at Bosch.' }] });
    expect((await t.api(confined).get(`/v1/batch/${ownBatch.body.id}`)).status).toBe(200);
    expect((await t.api().get(`/v1/batch/${ownBatch.body.id}`)).status).toBe(200);
  });
});

describe('API2 authentication', () => {
  it('dashboard credentials are compared in constant time, by digest, and exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(sameSecret(a, b)).toBe(a === b);
        expect(sameSecret(a, a)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('API3 property-level authorization (mass assignment, exposure)', () => {
  it('server-owned fields in a body are refused as unknown fields', async () => {
    const cases: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/v1/memories', { content: 'x', id: 'mem_mine' }, 'id'],
      ['POST', '/v1/memories', { content: 'x', status: 'ready' }, 'status'],
      ['POST', '/v1/memories', { content: 'x', workspace_id: 'ws_other' }, 'workspace_id'],
      ['POST', '/v1/memories', { content: 'x', created_at: '2020-01-01' }, 'created_at'],
      ['POST', '/v1/facts', { subject: 'a', predicate: 'likes', object: 'b', invalid_at: '2020-01-01' }, 'invalid_at'],
      ['POST', '/v1/facts', { subject: 'a', predicate: 'likes', object: 'b', observation_count: 99 }, 'observation_count'],
      ['POST', '/v1/batch', { memories: [{ content: 'x', version: 7 }] }, 'memories[0].version'],
    ];
    for (const [method, path, body, field] of cases) {
      const res = await t.api().request(method, path, body);
      expect(res.status, field).toBe(422);
      expect(res.body.message, field).toBe(`${field}: unknown field`);
    }
  });

  it('responses carry no internal fields (workspace, versions, sequences, key hashes)', async () => {
    const added = await t.api().post('/v1/memories', { content: 'I live in Oslo.', user_id: 'exposure' });
    await t.settle();
    const read = await t.api().get(`/v1/memories/${added.body.id}`);
    const text = JSON.stringify([added.body, read.body, (await t.api().get('/v1/ping')).body]);
    for (const internal of ['workspace_id', 'workspaceId', '"seq"', '"version"', 'hash', '"ws_', 'key_']) {
      expect(text).not.toContain(internal);
    }
  });
});

describe('API4 resource consumption', () => {
  it('free-text query parameters and filters are bounded', async () => {
    for (const path of [`/v1/facts?subject=${'s'.repeat(1_001)}`, `/v1/facts?entity=${'e'.repeat(1_001)}`, `/v1/audit?action=${'a'.repeat(101)}`]) {
      const res = await t.api().get(path);
      expect(res.status, path.slice(0, 30)).toBe(422);
    }
  });
});

describe('API5 function-level authorization (scopes)', () => {
  it('a read-only key gets 403 on every write; a write-only key 403 on every read', async () => {
    const reader = t.api((await t.keyFor({ workspace: 'test', scopes: ['memories:read'] })).key);
    const writer = t.api((await t.keyFor({ workspace: 'test', scopes: ['memories:write'] })).key);
    const memory = (await t.api().post('/v1/memories', { content: 'scoped', user_id: 'scopes', agent_id: 'scoped-agent' })).body.id;
    const fact = (await t.api().post('/v1/facts', { subject: 'user', predicate: 'likes', object: 'tea', user_id: 'scopes' })).body.id;
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/memories', { content: 'x' }],
      ['PATCH', `/v1/memories/${memory}`, { content: 'x' }],
      ['DELETE', `/v1/memories/${memory}`, undefined],
      ['POST', '/v1/batch', { memories: [{ content: 'x' }] }],
      ['POST', '/v1/facts', { subject: 'a', predicate: 'likes', object: 'b' }],
      ['PATCH', `/v1/facts/${fact}`, { object: 'coffee' }],
      ['POST', `/v1/facts/${fact}/forget`, {}],
      ['DELETE', '/v1/users/scopes/memories', undefined],
      ['DELETE', '/v1/agents/scoped-agent', undefined],
    ];
    for (const [method, path, body] of writes) expect((await reader.request(method, path, body)).status, `${method} ${path}`).toBe(403);
    const reads = [
      `/v1/memories/${memory}`,
      '/v1/memories',
      `/v1/memories/${memory}/history`,
      '/v1/facts',
      '/v1/profile?user_id=scopes',
      '/v1/context?query=x',
      '/v1/users',
      '/v1/agents',
      '/v1/events',
      '/v1/audit',
    ];
    for (const path of reads) expect((await writer.get(path)).status, path).toBe(403);
    expect((await writer.post('/v1/memories/search', { query: 'x' })).status).toBe(403);
    expect((await t.api().get(`/v1/memories/${memory}`)).status).toBe(200); // nothing was changed by the refused calls
  });
});

describe('API8 security headers', () => {
  it('every API response, errors included, carries the security headers and no X-Powered-By', async () => {
    const responses = [
      await t.api().get('/v1/ping'),
      await t.api(null).get('/v1/memories'),
      await t.api().get('/v1/memories/unknown'),
      await t.api().post('/v1/memories', { nope: 1 }),
      await t.api().get('/v1/nowhere'),
      await t.api(null).get('/healthz'),
    ];
    for (const res of responses) {
      const h = res.headers;
      expect(h.get('x-content-type-options'), String(res.status)).toBe('nosniff');
      expect(h.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(h.get('cache-control')).toBe('no-store');
      expect(h.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(h.get('referrer-policy')).toBe('no-referrer');
      expect(h.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(h.get('x-powered-by')).toBeNull();
    }
  });
});

describe('logs', () => {
  it('carry no API key, content, query text, metadata or end-user id, whatever the request', async () => {
    const secret = `zs${randomBytes(6).toString('hex')}`;
    const user = `user-${secret}`;
    const created = await t.keyFor({ workspace: 'logged' });
    const api = t.api(created.key);
    await api.post('/v1/memories', { content: `I live in ${secret}ville.`, user_id: user, metadata: { note: secret } });
    await api.post('/v1/memories/search', { query: `where ${secret}`, user_id: user });
    await api.get(`/v1/context?query=${secret}&user_id=${user}`);
    await api.get(`/v1/memories?user_id=${user}`);
    await api.post('/v1/memories', { content: secret, metadata: { deep: JSON.parse('['.repeat(30) + ']'.repeat(30)) } });
    await api.get(`/v1/memories/${secret}`);
    await t.api(`eng_${secret}`).get('/v1/ping');
    await t.settle(created.key);
    await api.delete(`/v1/users/${user}/memories`);
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain('"route":"/v1/users/:end_user/memories"');
    expect(log).toContain('"msg":"request"');
    for (const needle of [secret, created.key, user]) expect(log).not.toContain(needle);
  });

  it('errors that quote model output are logged by type only; content fields are redacted', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', 'engram', { write: (line: string) => lines.push(line) });
    const quoting = Object.assign(new Error('model returned invalid JSON: I live in Zsecretville'), { name: 'LlmOutputError' });
    logger.warn({ err: quoting, stage: 'facts' }, 'stage failed');
    logger.info({ memory: { content: 'Zsecretville', metadata: { a: 'Zsecretville' } }, query: 'Zsecretville' }, 'oops');
    expect(lines.join('\n')).not.toContain('Zsecretville');
    expect(lines[0]).toContain('LlmOutputError');
    expect(lines[0]).toContain('"stage":"facts"');
  });

  it('the raw API key is stored nowhere (only its hash): no file of DATA_DIR, no document, no queue entry', async () => {
    const created = await t.keyFor({ workspace: 'at-rest' });
    await t.api(created.key).post('/v1/memories', { content: 'a write with the new key' });
    await t.settle(created.key);
    const stored = await t.storedText();
    expect(stored).toContain('a write with the new key');
    expect(stored).not.toContain(created.key);
  });
});
