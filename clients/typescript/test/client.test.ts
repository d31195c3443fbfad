import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/support/server.js';
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  Engram,
  EngramError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ValidationError,
  type BatchProgress,
} from '../src/index.js';

/** @engram/client against a live embedded server, over real HTTP. */
let t: TestServer;
let engram: Engram;
beforeAll(async () => {
  t = await startTestServer();
  engram = new Engram({ baseUrl: t.url, apiKey: t.key });
});
afterAll(() => t?.close());

describe('@engram/client against a live server', () => {
  it('adds, reads, lists, updates, forgets and tells the history of memories', async () => {
    const user = 'ts-memories';
    expect((await engram.ping()).ok).toBe(true);
    const added = await engram.memories.add({
      content: 'I live in Berlin and work at Siemens.',
      user_id: user,
      metadata: { source: 'test', nested: { n: 1 } },
      timestamp: new Date('2021-05-01T00:00:00Z'),
    });
    expect(added).toMatchObject({ content: 'I live in Berlin and work at Siemens.', user_id: user, metadata: { source: 'test', nested: { n: 1 } } });
    expect(added.id).toMatch(/^mem_/);

    const ready = await engram.waitUntilReady(added.id);
    expect(ready.status).toBe('ready');
    expect(ready.facts.map((f) => `${f.predicate} ${f.object}`)).toEqual(expect.arrayContaining(['lives_in Berlin', 'works_at Siemens']));
    expect(ready.facts.every((f) => f.valid_from.startsWith('2021-05-01'))).toBe(true);
    expect(await engram.memories.get(added.id)).toMatchObject({ id: added.id, status: 'ready' });

    const chat = await engram.memories.add({ content: [{ role: 'user', content: 'I love hiking.' }, { role: 'assistant', content: 'Noted!' }], user_id: user });
    expect(chat.content).toBe('user: I love hiking.\nassistant: Noted!');
    const list = await engram.memories.list({ user_id: user, limit: 10 });
    expect(list.total).toBe(2);
    expect(list.memories.map((m) => m.id)).toEqual([chat.id, added.id]);

    const updated = await engram.memories.update(added.id, { content: 'I live in Lisbon and work at Siemens.', expected_updated_at: ready.updated_at });
    expect(updated.content).toBe('I live in Lisbon and work at Siemens.');
    const stale = await engram.memories.update(added.id, { content: 'again', expected_updated_at: ready.updated_at }).catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale).toMatchObject({ status: 409, code: 'stale_write' });

    const deletion = await engram.memories.delete(chat.id);
    expect(deletion).toMatchObject({ id: chat.id, status: 'forgotten' });
    expect(deletion.audit_id).toMatch(/^aud_/);
    const gone = await engram.memories.get(chat.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    expect(gone).toMatchObject({ status: 404, code: 'not_found' });
    const history = await engram.memories.history(chat.id);
    expect(history.events.map((e) => e.event)).toEqual(expect.arrayContaining(['created', 'deleted']));
    await engram.waitUntilReady([added.id]);
  });

  it('searches, assembles context, and answers facts as of a date, profile, events and users', async () => {
    const user = 'ts-reads';
    await engram.facts.write({ subject: 'user', predicate: 'lives_in', object: 'Paris', user_id: user, subject_type: 'user', valid_from: '2019-01-01T00:00:00Z' });
    const moved = await engram.memories.add({ content: 'I moved to Madrid.', user_id: user, timestamp: '2023-06-01T00:00:00Z' });
    const other = await engram.memories.add({ content: 'My favourite food is paella.', user_id: user });
    const [a, b] = await engram.waitUntilReady([moved.id, other.id]);
    expect([a.id, b.id]).toEqual([moved.id, other.id]);

    const hits = await engram.search({ query: 'paella food', user_id: user, limit: 5 });
    expect(hits.results[0].id).toBe(other.id);
    const context = await engram.context({ query: 'where does the user live', user_id: user, token_budget: 200 });
    expect(context.context).toContain('Madrid');
    expect(context.tokens).toBeLessThanOrEqual(200);

    const now = await engram.facts.list({ user_id: user, predicate: 'lives_in' });
    expect(now.facts.map((f) => f.object)).toEqual(['Madrid']);
    const then = await engram.facts.list({ user_id: user, predicate: 'lives_in', as_of: new Date('2020-01-01T00:00:00Z') });
    expect(then.facts.map((f) => f.object)).toEqual(['Paris']);
    const all = await engram.facts.list({ user_id: user, predicate: 'lives_in', include_invalidated: true });
    expect(all.facts.map((f) => f.object).sort()).toEqual(['Madrid', 'Paris']);
    expect(all.facts.find((f) => f.object === 'Paris')?.invalid_at).not.toBeNull();

    const profile = await engram.profile({ user_id: user, as_of: '2020-01-01' });
    expect(profile.facts.map((f) => f.object)).toContain('Paris');
    const events = await engram.events({ user_id: user });
    expect(events.processing).toBe(0);
    expect(events.events.map((e) => e.memory_id)).toEqual(expect.arrayContaining([moved.id, other.id]));
    const users = await engram.users.list();
    expect(users.users.map((u) => u.user_id)).toContain(user);
  });

  it('imports a batch in chunks with progress, in order, and erases users (ids with @ and /)', async () => {
    const user = 'maria@example.com/a';
    const items = ['I live in Oslo.', 'I moved to Bergen.', 'I like skiing.', 'I work at Equinor.', 'I moved to Tromsø.'].map((content, i) => ({
      content,
      user_id: user,
      timestamp: new Date(Date.UTC(2020 + i, 0, 1)),
    }));
    const reports: BatchProgress[] = [];
    const result = await engram.memories.addBatch(items, { chunkSize: 2, onProgress: (p) => reports.push({ ...p }) });
    expect(result).toMatchObject({ received: 5, imported: 5, failed: 0, errors: [] });
    expect(result.batches).toHaveLength(3);
    expect(result.batches.every((b) => b.status === 'completed')).toBe(true);
    expect(reports.at(-1)).toMatchObject({ total: 5, submitted: 5, imported: 5, done: true });
    expect(reports.filter((r) => r.done)).toHaveLength(1);
    const lives = await engram.facts.list({ user_id: user, predicate: 'lives_in' });
    expect(lives.facts.map((f) => f.object)).toEqual(['Tromsø']);

    const erased = await engram.users.erase(user);
    expect(erased).toMatchObject({ user_id: user, memories_forgotten: 5 });
    expect(erased.audit_id).toMatch(/^aud_/);
    expect((await engram.memories.list({ user_id: user })).total).toBe(0);
    expect((await engram.facts.list({ user_id: user })).total).toBe(0);
    expect((await engram.context({ query: 'where', user_id: user })).context).toBe('');
  });

  it('writes, corrects and forgets facts; lists agents and the audit log', async () => {
    const user = 'ts-facts';
    const written = await engram.facts.write({ subject: 'user', predicate: 'likes', object: 'tea', user_id: user, subject_type: 'user' });
    expect(written).toMatchObject({ subject: 'user', predicate: 'likes', object: 'tea', invalidated: [] });
    const corrected = await engram.facts.correct(written.id, { object: 'green tea' });
    expect(corrected).toMatchObject({ object: 'green tea', invalidated: [written.id] });
    const historic = await engram.facts.correct(written.id, { object: 'coffee' }).catch((e: unknown) => e);
    expect(historic).toBeInstanceOf(ConflictError);
    expect(historic).toMatchObject({ status: 409, code: 'fact_not_current' });
    const forgotten = await engram.facts.forget(corrected.id, new Date());
    expect(forgotten).toMatchObject({ id: corrected.id, status: 'forgotten' });
    expect((await engram.facts.list({ user_id: user })).total).toBe(0);
    expect((await engram.facts.list({ user_id: user, include_invalidated: true })).total).toBe(2);

    await engram.memories.add({ content: 'Agent note.', user_id: user, agent_id: 'ts-agent' });
    expect((await engram.agents.list()).agents.map((a) => a.agent_id)).toContain('ts-agent');
    expect((await engram.agents.purge('ts-agent')).agent_id).toBe('ts-agent');
    const audit = await engram.audit({ since: new Date(Date.now() - 60_000), limit: 100 });
    expect(audit.total).toBeGreaterThan(0);
  });

  it('throws typed errors carrying the spec code', async () => {
    const bad = new Engram({ baseUrl: `${t.url}/v1/`, apiKey: 'eng_not_a_key' });
    const unauthenticated = await bad.ping().catch((e: unknown) => e);
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toBeInstanceOf(EngramError);
    expect(unauthenticated).toMatchObject({ status: 401, code: 'invalid_key', message: 'Invalid or missing API key' });

    const invalid = await engram.search({ query: '' }).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ValidationError);
    expect(invalid).toMatchObject({ status: 422, code: 'invalid_request' });
    expect((invalid as Error).message).toMatch(/^query: /);

    const readOnly = new Engram({ baseUrl: t.url, apiKey: (await t.keyFor({ workspace: 'test', scopes: ['memories:read'] })).key });
    const forbidden = await readOnly.users.erase('someone').catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(PermissionDeniedError);
    expect(forbidden).toMatchObject({ status: 403, code: 'forbidden' });
    expect(() => new Engram({ baseUrl: t.url, apiKey: '' })).toThrow(TypeError);
  });

  it('retries 503 and connection failures of reads, but never resends a write that may have arrived', async () => {
    const seen: string[] = [];
    let failNext = 0;
    let dropNext = 0;
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      seen.push(request.method);
      if (failNext > 0) {
        failNext--;
        return new Response(JSON.stringify({ code: 'search_unavailable', message: 'down' }), { status: 503, headers: { 'Retry-After': '0' } });
      }
      if (dropNext > 0) {
        dropNext--;
        throw new TypeError('fetch failed');
      }
      return fetch(request);
    };
    const client = new Engram({ baseUrl: t.url, apiKey: t.key, fetch: flaky, maxRetryDelayMs: 1_000 });
    failNext = 2;
    expect((await client.search({ query: 'anything', user_id: 'nobody' })).results).toEqual([]);
    expect(seen).toEqual(['POST', 'POST', 'POST']);

    seen.length = 0;
    dropNext = 1;
    expect((await client.memories.list({ user_id: 'nobody' })).total).toBe(0);
    expect(seen).toEqual(['GET', 'GET']);

    seen.length = 0;
    dropNext = 1;
    const failed = await client.memories.add({ content: 'maybe stored', user_id: 'nobody' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ConnectionError);
    expect(failed).toMatchObject({ status: 0, code: 'connection_error' });
    expect(seen).toEqual(['POST']);

    // A Retry-After longer than maxRetryDelayMs is not waited for.
    seen.length = 0;
    const patient = new Engram({
      baseUrl: t.url,
      apiKey: t.key,
      maxRetryDelayMs: 1_000,
      fetch: async (input, init) => {
        seen.push('GET');
        return new Response('{"code":"rate_limit_exceeded","message":"slow down"}', { status: 429, headers: { 'Retry-After': '120' } });
      },
    });
    const tooLong = await patient.ping().catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(RateLimitError);
    expect(tooLong).toMatchObject({ status: 429, code: 'rate_limit_exceeded', retryAfter: 120 });
    expect(seen).toHaveLength(1);

    seen.length = 0;
    failNext = 5;
    const exhausted = await new Engram({ baseUrl: t.url, apiKey: t.key, fetch: flaky, maxRetries: 1 }).ping().catch((e: unknown) => e);
    expect(exhausted).toMatchObject({ status: 503, code: 'search_unavailable' });
    expect(seen).toHaveLength(2);
    failNext = 0;
  });
});

describe('@engram/client and the per-second rate limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_PER_SECOND: '2' });
  });
  afterAll(() => limited?.close());

  it('waits as long as Retry-After says and then succeeds; with no retries left it throws RateLimitError', async () => {
    const client = new Engram({ baseUrl: limited.url, apiKey: limited.key });
    const started = Date.now();
    const pages = await Promise.all(Array.from({ length: 4 }, () => client.memories.list()));
    expect(pages.every((p) => p.total === 0)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const impatient = new Engram({ baseUrl: limited.url, apiKey: limited.key, maxRetries: 0 });
    const errors = await Promise.all(Array.from({ length: 4 }, () => impatient.memories.list().then(() => null, (e: unknown) => e)));
    const refused = errors.find((e) => e !== null);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect(refused).toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((refused as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
  });
});
