/**
 * The behaviour every `Store` backend must have, as documented in storage/types.ts.
 * Run it from a backend's own test file:
 *
 *   describeStoreContract('sqlite', async () => SqliteStore.open(tmp), async () => rmSync(tmp, ...));
 *
 * Every test works in a fresh random workspace (and uses random lock, sequence and
 * setting names), so the suite can share a database server with other runs.
 * Repositories whose methods are global (workspaces, keys) are checked through
 * the records this suite inserted, never through absolute counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRegistration, ApiKeyRecord, AuditRecord, FactRecord, HistoryEventRecord, MemoryRecord, Store, TransferRecord, WorkspaceRecord } from '../types.js';
import { at, batch, fact, ids, memory, newWorkspaceId, sleep, sorted, uid } from './fixtures.js';

export function describeStoreContract(
  name: string,
  open: () => Promise<Store>,
  /** Called after the suite, before `close()`, e.g. to drop a test database. */
  cleanup?: (store: Store) => Promise<void>,
): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      if (!store) return;
      try {
        if (cleanup) await cleanup(store);
      } finally {
        await store.close();
      }
    });

    it('pings', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    // ------------------------------------------------------------------ workspaces

    describe('workspaces', () => {
      it('inserts and reads by id and by slug', async () => {
        const ws: WorkspaceRecord = { id: newWorkspaceId(), slug: uid('slug-'), plan: 'hobby', createdAt: at(1) };
        await store.workspaces.insert(ws);
        expect(await store.workspaces.get(ws.id)).toEqual(ws);
        expect(await store.workspaces.getBySlug(ws.slug)).toEqual(ws);
        expect(await store.workspaces.get(newWorkspaceId())).toBeNull();
        expect(await store.workspaces.getBySlug(uid('slug-'))).toBeNull();
      });

      it('lists oldest first and changes plans', async () => {
        const a: WorkspaceRecord = { id: newWorkspaceId(), slug: uid('a-'), plan: 'hobby', createdAt: at(20) };
        const b: WorkspaceRecord = { id: newWorkspaceId(), slug: uid('b-'), plan: 'team', createdAt: at(10) };
        await store.workspaces.insert(a);
        await store.workspaces.insert(b);
        const mine = (await store.workspaces.list()).filter((w) => w.id === a.id || w.id === b.id);
        expect(mine).toEqual([b, a]);

        await store.workspaces.setPlan(a.id, 'scale');
        expect((await store.workspaces.get(a.id))?.plan).toBe('scale');
        expect((await store.workspaces.get(b.id))?.plan).toBe('team');
      });

      it('refuses a second workspace with the same slug', async () => {
        const slug = uid('dup-');
        await store.workspaces.insert({ id: newWorkspaceId(), slug, plan: 'hobby', createdAt: at(0) });
        await expect(store.workspaces.insert({ id: newWorkspaceId(), slug, plan: 'hobby', createdAt: at(0) })).rejects.toThrow();
      });
    });

    // ------------------------------------------------------------------ api keys

    describe('keys', () => {
      const key = (workspaceId: string, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord => ({
        id: uid('key_'),
        workspaceId,
        hash: uid('hash'),
        scopes: ['memories:read', 'memories:write'],
        agentId: null,
        createdAt: at(0),
        revokedAt: null,
        ...overrides,
      });

      it('inserts and reads by id and by hash', async () => {
        const ws = newWorkspaceId();
        const plain = key(ws);
        const confined = key(ws, { agentId: 'support-bot', scopes: ['memories:read'] });
        await store.keys.insert(plain);
        await store.keys.insert(confined);
        expect(await store.keys.get(plain.id)).toEqual(plain);
        expect(await store.keys.getByHash(confined.hash)).toEqual(confined);
        expect(await store.keys.get(uid('key_'))).toBeNull();
        expect(await store.keys.getByHash(uid('nohash'))).toBeNull();
      });

      it('lists oldest first and counts every key', async () => {
        const ws = newWorkspaceId();
        const before = await store.keys.count();
        const late = key(ws, { createdAt: at(50) });
        const early = key(ws, { createdAt: at(40) });
        await store.keys.insert(late);
        await store.keys.insert(early);
        expect((await store.keys.list()).filter((k) => k.workspaceId === ws)).toEqual([early, late]);
        expect(await store.keys.count()).toBe(before + 2);
      });

      it('revokes once; revoked keys still exist and count', async () => {
        const k = key(newWorkspaceId());
        await store.keys.insert(k);
        const before = await store.keys.count();
        expect(await store.keys.revoke(k.id, at(5))).toBe(true);
        expect(await store.keys.revoke(k.id, at(6))).toBe(false);
        expect(await store.keys.revoke(uid('key_'), at(6))).toBe(false);
        expect(await store.keys.get(k.id)).toEqual({ ...k, revokedAt: at(5) });
        expect(await store.keys.count()).toBe(before);
      });
    });

    // ------------------------------------------------------------------ agents

    describe('agents', () => {
      it('registers, reports existence, lists and removes', async () => {
        const ws = newWorkspaceId();
        expect(await store.agents.register(ws, 'beta', 10, at(2))).toBe('created');
        expect(await store.agents.register(ws, 'alpha', 10, at(1))).toBe('created');
        expect(await store.agents.register(ws, 'gamma', 10, at(2))).toBe('created');
        expect(await store.agents.register(ws, 'beta', 10, at(9))).toBe('exists');
        expect(await store.agents.exists(ws, 'beta')).toBe(true);
        expect(await store.agents.exists(ws, 'delta')).toBe(false);
        expect(await store.agents.exists(newWorkspaceId(), 'beta')).toBe(false);
        expect(await store.agents.count(ws)).toBe(3);

        // created_at, then agent id
        const all = await store.agents.list(ws, { limit: 10, offset: 0 });
        expect(all.total).toBe(3);
        expect(all.items).toEqual([
          { workspaceId: ws, agentId: 'alpha', createdAt: at(1) },
          { workspaceId: ws, agentId: 'beta', createdAt: at(2) },
          { workspaceId: ws, agentId: 'gamma', createdAt: at(2) },
        ]);
        const page = await store.agents.list(ws, { limit: 1, offset: 1 });
        expect(page).toEqual({ items: [all.items[1]], total: 3 });

        expect(await store.agents.remove(ws, 'beta')).toBe(true);
        expect(await store.agents.remove(ws, 'beta')).toBe(false);
        expect(await store.agents.exists(ws, 'beta')).toBe(false);
        expect(await store.agents.count(ws)).toBe(2);
        expect(await store.agents.register(ws, 'beta', 10, at(3))).toBe('created');
      });

      it('enforces the cap per workspace; removing frees a slot', async () => {
        const ws = newWorkspaceId();
        for (const agent of ['a1', 'a2', 'a3']) expect(await store.agents.register(ws, agent, 3, at(0))).toBe('created');
        expect(await store.agents.register(ws, 'a4', 3, at(0))).toBe('cap_exceeded');
        expect(await store.agents.register(ws, 'a2', 3, at(0))).toBe('exists');
        expect(await store.agents.exists(ws, 'a4')).toBe(false);
        expect(await store.agents.count(ws)).toBe(3);
        // another workspace has its own cap
        expect(await store.agents.register(newWorkspaceId(), 'a4', 3, at(0))).toBe('created');
        // a raised cap admits more
        expect(await store.agents.register(ws, 'a4', 4, at(0))).toBe('created');
        expect(await store.agents.register(ws, 'a5', 4, at(0))).toBe('cap_exceeded');
        expect(await store.agents.remove(ws, 'a1')).toBe(true);
        expect(await store.agents.register(ws, 'a5', 4, at(0))).toBe('created');
        expect(await store.agents.count(ws)).toBe(4);
      });

      it('is atomic under concurrency: 20 registrations against a cap of 5 create exactly 5', async () => {
        const ws = newWorkspaceId();
        const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.agents.register(ws, `agent-${i}`, 5, at(i))));
        const tally = (o: AgentRegistration) => outcomes.filter((x) => x === o).length;
        expect(tally('created')).toBe(5);
        expect(tally('cap_exceeded')).toBe(15);
        expect(await store.agents.count(ws)).toBe(5);
        const listed = await store.agents.list(ws, { limit: 50, offset: 0 });
        expect(listed.total).toBe(5);
        const created = outcomes.map((o, i) => (o === 'created' ? `agent-${i}` : null)).filter((a) => a !== null);
        expect(sorted(listed.items.map((a) => a.agentId))).toEqual(sorted(created));
      });

      it('is atomic under concurrency: the same agent registered 10 times at once is created once', async () => {
        const ws = newWorkspaceId();
        const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.agents.register(ws, 'same', 5, at(0))));
        expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'exists')).toHaveLength(9);
        expect(await store.agents.count(ws)).toBe(1);
        // the repeated registrations took no extra slots
        for (let i = 0; i < 4; i++) expect(await store.agents.register(ws, `other-${i}`, 5, at(0))).toBe('created');
        expect(await store.agents.register(ws, 'one-too-many', 5, at(0))).toBe('cap_exceeded');
      });
    });

    // ------------------------------------------------------------------ memories

    describe('memories', () => {
      it('inserts and reads back exactly, scoped by workspace', async () => {
        const ws = newWorkspaceId();
        const m = memory(ws, {
          userId: 'alice',
          agentId: 'bot',
          runId: 'run-1',
          metadata: { source: 'chat', n: 3, ok: true, nested: { list: [1, 'two', null] }, none: null, 'dotted.key': 1, $dollar: 'x' },
          referenceTime: at(-100),
          seq: 42,
        });
        const plain = memory(ws);
        await store.memories.insert(m);
        await store.memories.insert(plain);
        expect(await store.memories.get(ws, m.id)).toEqual(m);
        expect(await store.memories.get(ws, plain.id)).toEqual(plain);
        expect(await store.memories.get(newWorkspaceId(), m.id)).toBeNull();
        expect(await store.memories.get(ws, uid('mem_'))).toBeNull();

        const many = await store.memories.getMany(ws, [m.id, plain.id, uid('mem_')]);
        expect(sorted(ids(many))).toEqual(sorted([m.id, plain.id]));
        expect(many.find((x) => x.id === m.id)).toEqual(m);
        expect(await store.memories.getMany(ws, [])).toEqual([]);
        expect(await store.memories.getMany(newWorkspaceId(), [m.id])).toEqual([]);
      });

      it('insertMany stores a batch in order, each readable as inserted', async () => {
        const ws = newWorkspaceId();
        const batch = Array.from({ length: 5 }, (_, i) => memory(ws, { userId: 'bulk', seq: 100 + i, createdAt: at(i) }));
        await store.memories.insertMany(batch);
        await store.memories.insertMany([]);
        for (const m of batch) expect(await store.memories.get(ws, m.id)).toEqual(m);
        await expect(store.memories.insertMany([batch[0]])).rejects.toThrow();
      });

      it('neighbours: the ready memories written just before and after each one in its scope, skipping others', async () => {
        const ws = newWorkspaceId();
        const turn = (seq: number, overrides: Partial<MemoryRecord> = {}) => memory(ws, { userId: 'conv', agentId: 'bot', status: 'ready', seq, ...overrides });
        const first = turn(10);
        const otherUser = turn(11, { userId: 'someone-else' });
        const otherAgent = turn(12, { agentId: null });
        const processing = turn(13, { status: 'processing' });
        const forgotten = turn(14, { deletedAt: at(1) });
        const hit = turn(15);
        const reply = turn(16);
        const last = turn(20);
        for (const m of [last, reply, first, otherUser, otherAgent, processing, forgotten, hit]) await store.memories.insert(m);
        await store.memories.insert(memory(newWorkspaceId(), { userId: 'conv', agentId: 'bot', status: 'ready', seq: 15 }));

        const found = await store.memories.neighbours(ws, [hit, first, last, { ...hit, workspaceId: newWorkspaceId() }]);
        expect(found.map((around) => sorted(ids(around)))).toEqual([sorted([first.id, reply.id]), [hit.id], [reply.id], []]);
        expect(found[0].find((m) => m.id === reply.id)).toEqual(reply);
        expect(await store.memories.neighbours(ws, [])).toEqual([]);
      });

      it('lists newest first (created_at desc, id desc) with paging totals', async () => {
        const ws = newWorkspaceId();
        const oldest = memory(ws, { createdAt: at(1) });
        const tieA = memory(ws, { id: 'mem_tie_a', createdAt: at(5) });
        const tieB = memory(ws, { id: 'mem_tie_b', createdAt: at(5) });
        const newest = memory(ws, { createdAt: at(9) });
        for (const m of [tieA, newest, oldest, tieB]) await store.memories.insert(m);
        await store.memories.insert(memory(newWorkspaceId(), { createdAt: at(7) }));

        const all = await store.memories.list({ workspaceId: ws }, { limit: 10, offset: 0 });
        expect(ids(all.items)).toEqual([newest.id, tieB.id, tieA.id, oldest.id]);
        expect(all.total).toBe(4);

        const page = await store.memories.list({ workspaceId: ws }, { limit: 2, offset: 1 });
        expect(ids(page.items)).toEqual([tieB.id, tieA.id]);
        expect(page.total).toBe(4);
        const beyond = await store.memories.list({ workspaceId: ws }, { limit: 2, offset: 10 });
        expect(beyond).toEqual({ items: [], total: 4 });
      });

      it('filters by user, agent (null = default namespace, undefined = any), run and status', async () => {
        const ws = newWorkspaceId();
        const defaultNs = memory(ws, { userId: 'alice', agentId: null, runId: 'r1', status: 'ready', createdAt: at(1) });
        const botAlice = memory(ws, { userId: 'alice', agentId: 'bot', runId: 'r2', createdAt: at(2) });
        const botBob = memory(ws, { userId: 'bob', agentId: 'bot', runId: 'r1', status: 'error', error: 'boom', createdAt: at(3) });
        const anon = memory(ws, { userId: null, agentId: null, createdAt: at(4) });
        for (const m of [defaultNs, botAlice, botBob, anon]) await store.memories.insert(m);

        const list = async (filter: Omit<Parameters<Store['memories']['list']>[0], 'workspaceId'>) =>
          ids((await store.memories.list({ workspaceId: ws, ...filter }, { limit: 10, offset: 0 })).items);

        expect(await list({})).toEqual([anon.id, botBob.id, botAlice.id, defaultNs.id]);
        expect(await list({ agentId: undefined })).toEqual([anon.id, botBob.id, botAlice.id, defaultNs.id]);
        expect(await list({ agentId: null })).toEqual([anon.id, defaultNs.id]);
        expect(await list({ agentId: 'bot' })).toEqual([botBob.id, botAlice.id]);
        expect(await list({ userId: 'alice' })).toEqual([botAlice.id, defaultNs.id]);
        expect(await list({ userId: 'alice', agentId: null })).toEqual([defaultNs.id]);
        expect(await list({ runId: 'r1' })).toEqual([botBob.id, defaultNs.id]);
        expect(await list({ status: 'processing' })).toEqual([anon.id, botAlice.id]);
        expect(await list({ status: 'error', agentId: 'bot', userId: 'bob', runId: 'r1' })).toEqual([botBob.id]);
        expect(await list({ agentId: 'nobody' })).toEqual([]);

        expect(await store.memories.count({ workspaceId: ws })).toBe(4);
        expect(await store.memories.count({ workspaceId: ws, agentId: null })).toBe(2);
        expect(await store.memories.count({ workspaceId: ws, agentId: 'bot', userId: 'alice' })).toBe(1);
        expect(await store.memories.count({ workspaceId: newWorkspaceId() })).toBe(0);
      });

      it('update is compare-and-set on version and refuses forgotten memories', async () => {
        const ws = newWorkspaceId();
        const m = memory(ws, { status: 'processing' });
        await store.memories.insert(m);

        const v2 = await store.memories.update(ws, m.id, { content: 'I like black tea', version: 2, seq: 7, updatedAt: at(10), status: 'processing' }, 1);
        expect(v2).toEqual({ ...m, content: 'I like black tea', version: 2, seq: 7, updatedAt: at(10) });

        // stale expectation: nothing changes
        expect(await store.memories.update(ws, m.id, { status: 'ready' }, 1)).toBeNull();
        expect((await store.memories.get(ws, m.id))?.status).toBe('processing');

        // no expectation: applies; undefined fields are ignored, null is written
        const failed = await store.memories.update(ws, m.id, { status: 'error', error: 'boom' });
        expect(failed).toMatchObject({ status: 'error', error: 'boom', version: 2 });
        const ready = await store.memories.update(ws, m.id, { status: 'ready', error: null, content: undefined }, 2);
        expect(ready).toEqual({ ...v2, status: 'ready', error: null });

        // an empty patch returns the current record
        expect(await store.memories.update(ws, m.id, {})).toEqual(ready);
        expect(await store.memories.update(ws, uid('mem_'), { status: 'ready' })).toBeNull();
        expect(await store.memories.update(newWorkspaceId(), m.id, { status: 'error' })).toBeNull();

        await store.memories.forget(ws, m.id, at(20));
        expect(await store.memories.update(ws, m.id, { status: 'error' })).toBeNull();
        expect(await store.memories.update(ws, m.id, { content: 'resurrected' }, 2)).toBeNull();
        expect((await store.memories.get(ws, m.id))?.content).toBe('');
      });

      it('update can only apply once under concurrent compare-and-set', async () => {
        const ws = newWorkspaceId();
        const m = memory(ws);
        await store.memories.insert(m);
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) => store.memories.update(ws, m.id, { content: `edit ${i}`, version: 2 }, 1)),
        );
        const winners = results.filter((r) => r !== null);
        expect(winners).toHaveLength(1);
        expect(await store.memories.get(ws, m.id)).toEqual(winners[0]);
      });

      it('forget leaves a content-free stub that keeps id, scope and timestamps', async () => {
        const ws = newWorkspaceId();
        const m = memory(ws, {
          userId: 'alice',
          agentId: 'bot',
          runId: 'r',
          metadata: { secret: 'x' },
          status: 'error',
          error: 'boom',
          version: 3,
          seq: 9,
          referenceTime: at(-5),
          createdAt: at(1),
          updatedAt: at(2),
        });
        await store.memories.insert(m);
        const stub = await store.memories.forget(ws, m.id, at(30));
        expect(stub).toEqual({ ...m, content: '', metadata: {}, status: 'ready', error: null, deletedAt: at(30) });
        expect(await store.memories.get(ws, m.id)).toEqual(stub);
        expect(await store.memories.forget(ws, m.id, at(31))).toBeNull();
        expect(await store.memories.forget(ws, uid('mem_'), at(31))).toBeNull();

        expect(await store.memories.count({ workspaceId: ws })).toBe(0);
        expect((await store.memories.list({ workspaceId: ws }, { limit: 5, offset: 0 })).items).toEqual([]);
        const withStubs = await store.memories.list({ workspaceId: ws, includeForgotten: true }, { limit: 5, offset: 0 });
        expect(withStubs).toEqual({ items: [stub], total: 1 });
      });

      it('versions lists what purge would remove; purge physically removes matching memories and reports which were active', async () => {
        const ws = newWorkspaceId();
        const aliceDefault = memory(ws, { userId: 'alice', agentId: null, version: 3 });
        const aliceBot = memory(ws, { userId: 'alice', agentId: 'bot' });
        const aliceForgotten = memory(ws, { userId: 'alice', agentId: null });
        const bob = memory(ws, { userId: 'bob', agentId: null });
        const elsewhere = memory(newWorkspaceId(), { userId: 'alice', agentId: null });
        for (const m of [aliceDefault, aliceBot, aliceForgotten, bob, elsewhere]) await store.memories.insert(m);
        await store.memories.forget(ws, aliceForgotten.id, at(3));

        const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
        const listed = await store.memories.versions({ workspaceId: ws, userId: 'alice', agentId: null, includeForgotten: true });
        expect(await store.memories.versions({ workspaceId: ws, userId: 'alice', agentId: null })).toEqual([{ id: aliceDefault.id, active: true, version: 3 }]);
        const removed = await store.memories.purge({ workspaceId: ws, userId: 'alice', agentId: null, includeForgotten: true });
        expect(listed.sort(byId)).toEqual(removed.sort(byId));
        expect(removed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(
          [
            { id: aliceDefault.id, active: true, version: 3 },
            { id: aliceForgotten.id, active: false, version: 1 },
          ].sort((a, b) => a.id.localeCompare(b.id)),
        );
        expect(await store.memories.get(ws, aliceDefault.id)).toBeNull();
        expect(await store.memories.get(ws, aliceForgotten.id)).toBeNull();
        expect(await store.memories.get(ws, aliceBot.id)).not.toBeNull();
        expect(await store.memories.get(ws, bob.id)).not.toBeNull();
        expect(await store.memories.get(elsewhere.workspaceId, elsewhere.id)).not.toBeNull();

        expect(await store.memories.purge({ workspaceId: ws, userId: 'alice', agentId: null })).toEqual([]);
        const agentPurge = await store.memories.purge({ workspaceId: ws, agentId: 'bot' });
        expect(agentPurge).toEqual([{ id: aliceBot.id, active: true, version: 1 }]);
        // Restricted to ids, a purge leaves the scope's other memories alone.
        const late = memory(ws, { userId: 'bob', agentId: null });
        await store.memories.insert(late);
        expect(await store.memories.purge({ workspaceId: ws, ids: [bob.id] })).toEqual([{ id: bob.id, active: true, version: 1 }]);
        expect(await store.memories.versions({ workspaceId: ws, includeForgotten: true })).toEqual([{ id: late.id, active: true, version: 1 }]);
        expect(await store.memories.purge({ workspaceId: ws })).toEqual([{ id: late.id, active: true, version: 1 }]);
        expect(await store.memories.count({ workspaceId: ws, includeForgotten: true })).toBe(0);
      });

      it('summarizes by user: live memories with a user, last active desc then user asc, paged', async () => {
        const ws = newWorkspaceId();
        await store.memories.insert(memory(ws, { userId: 'alice', agentId: null, updatedAt: at(5) }));
        await store.memories.insert(memory(ws, { userId: 'alice', agentId: 'bot', updatedAt: at(8) }));
        await store.memories.insert(memory(ws, { userId: 'bob', agentId: 'bot', updatedAt: at(8) }));
        await store.memories.insert(memory(ws, { userId: 'carol', agentId: null, updatedAt: at(2) }));
        await store.memories.insert(memory(ws, { userId: null, agentId: null, updatedAt: at(50) }));
        const forgotten = memory(ws, { userId: 'dave', agentId: null, updatedAt: at(60) });
        await store.memories.insert(forgotten);
        await store.memories.forget(ws, forgotten.id, at(61));

        const all = await store.memories.summarizeByUser(ws, undefined, { limit: 10, offset: 0 });
        expect(all).toEqual({
          items: [
            { key: 'alice', memories: 2, lastActive: at(8) },
            { key: 'bob', memories: 1, lastActive: at(8) },
            { key: 'carol', memories: 1, lastActive: at(2) },
          ],
          total: 3,
        });
        expect(await store.memories.summarizeByUser(ws, undefined, { limit: 1, offset: 1 })).toEqual({ items: [all.items[1]], total: 3 });
        expect(await store.memories.summarizeByUser(ws, null, { limit: 10, offset: 0 })).toEqual({
          items: [
            { key: 'alice', memories: 1, lastActive: at(5) },
            { key: 'carol', memories: 1, lastActive: at(2) },
          ],
          total: 2,
        });
        expect(await store.memories.summarizeByUser(ws, 'bot', { limit: 10, offset: 0 })).toEqual({
          items: [
            { key: 'alice', memories: 1, lastActive: at(8) },
            { key: 'bob', memories: 1, lastActive: at(8) },
          ],
          total: 2,
        });
        expect(await store.memories.summarizeByUser(newWorkspaceId(), undefined, { limit: 10, offset: 0 })).toEqual({ items: [], total: 0 });
      });

      it('summarizes by agent for the named agents only, ignoring forgotten memories', async () => {
        const ws = newWorkspaceId();
        await store.memories.insert(memory(ws, { agentId: 'a', updatedAt: at(1) }));
        await store.memories.insert(memory(ws, { agentId: 'a', updatedAt: at(4) }));
        await store.memories.insert(memory(ws, { agentId: 'b', updatedAt: at(2) }));
        await store.memories.insert(memory(ws, { agentId: 'c', updatedAt: at(3) }));
        await store.memories.insert(memory(ws, { agentId: null, updatedAt: at(9) }));
        const gone = memory(ws, { agentId: 'b', updatedAt: at(20) });
        await store.memories.insert(gone);
        await store.memories.forget(ws, gone.id, at(21));

        const summary = await store.memories.summarizeByAgent(ws, ['a', 'b', 'zzz']);
        expect(summary.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
          { key: 'a', memories: 2, lastActive: at(4) },
          { key: 'b', memories: 1, lastActive: at(2) },
        ]);
        expect(await store.memories.summarizeByAgent(ws, [])).toEqual([]);
      });

      it('pendingBefore: an earlier, recent, processing write in the same user scope', async () => {
        const ws = newWorkspaceId();
        const scope = { workspaceId: ws, agentId: null, userId: 'u' };
        await store.memories.insert(memory(ws, { userId: 'u', seq: 5, status: 'processing', updatedAt: at(10) }));
        await store.memories.insert(memory(ws, { userId: 'u', seq: 3, status: 'ready', updatedAt: at(10) }));
        await store.memories.insert(memory(ws, { userId: 'other', seq: 1, status: 'processing', updatedAt: at(10) }));
        await store.memories.insert(memory(ws, { userId: 'u', agentId: 'bot', seq: 1, status: 'processing', updatedAt: at(10) }));
        expect(await store.memories.pendingBefore(scope, 6, at(0))).toBe(true);
        expect(await store.memories.pendingBefore(scope, 5, at(0))).toBe(false); // only strictly earlier writes
        expect(await store.memories.pendingBefore(scope, 6, at(10))).toBe(false); // stale ones no longer hold back
        expect(await store.memories.pendingBefore({ ...scope, userId: null }, 99, at(0))).toBe(false);
        const gone = memory(ws, { userId: 'u', seq: 2, status: 'processing', updatedAt: at(10) });
        await store.memories.insert(gone);
        expect(await store.memories.pendingBefore(scope, 4, at(0))).toBe(true);
        await store.memories.forget(ws, gone.id, at(11));
        expect(await store.memories.pendingBefore(scope, 4, at(0))).toBe(false);
      });
    });

    // ------------------------------------------------------------------ facts

    describe('accepting writes', () => {
      const created = (m: MemoryRecord): HistoryEventRecord => ({
        id: `evt_${m.id}`,
        workspaceId: m.workspaceId,
        memoryId: m.id,
        event: 'created',
        at: m.createdAt,
        factId: null,
        fact: null,
      });

      it('stores a batch, its memories and their created events, each readable as accepted', async () => {
        const ws = newWorkspaceId();
        const memories = Array.from({ length: 3 }, (_, i) => memory(ws, { userId: 'accept', seq: 200 + i, createdAt: at(i) }));
        const b = batch(ws, 3, { memoryIds: ids(memories) });
        await store.acceptWrites({ batch: b, memories, events: memories.map(created) });
        expect(await store.batches.get(ws, b.id)).toEqual(b);
        for (const m of memories) {
          expect(await store.memories.get(ws, m.id)).toEqual(m);
          expect(await store.history.list(ws, m.id)).toEqual([created(m)]);
        }
      });

      it('stores a single write without a batch, and refuses a memory that is already stored', async () => {
        const ws = newWorkspaceId();
        const m = memory(ws, { userId: 'accept-one' });
        await store.acceptWrites({ memories: [m], events: [created(m)] });
        expect(await store.memories.get(ws, m.id)).toEqual(m);
        expect(await store.history.list(ws, m.id)).toEqual([created(m)]);
        await expect(store.acceptWrites({ memories: [{ ...m, content: 'again' }], events: [] })).rejects.toThrow();
        expect(await store.memories.get(ws, m.id)).toEqual(m);
      });
    });

    describe('facts', () => {
      it('inserts if absent by id and reads back exactly', async () => {
        const ws = newWorkspaceId();
        const f = fact(ws, {
          userId: 'alice',
          agentId: 'bot',
          runId: 'r1',
          objectIsLiteral: true,
          confidence: 0.75,
          invalidated: ['fct_old'],
          confirmations: ['mem_1@1'],
          sourceMemoryId: 'mem_1',
          sourceMemoryIds: ['mem_1'],
          sourceVersion: 3,
          seq: 12,
        });
        expect(await store.facts.insert(f)).toBe(true);
        expect(await store.facts.insert({ ...f, object: 'changed' })).toBe(false);
        expect(await store.facts.get(ws, f.id)).toEqual(f);
        expect(await store.facts.get(newWorkspaceId(), f.id)).toBeNull();
        expect(await store.facts.get(ws, uid('fct_'))).toBeNull();
      });

      it('insert is idempotent under concurrent retries', async () => {
        const ws = newWorkspaceId();
        const f = fact(ws);
        const results = await Promise.all(Array.from({ length: 6 }, () => store.facts.insert(f)));
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await store.facts.query({ workspaceId: ws }, { limit: 10, offset: 0 })).total).toBe(1);
      });

      it('queries in valid_from desc, seq desc, id asc order with paging totals', async () => {
        const ws = newWorkspaceId();
        const f1 = fact(ws, { id: 'fct_b', validFrom: at(5), seq: 1 });
        const f2 = fact(ws, { id: 'fct_a', validFrom: at(5), seq: 1 });
        const f3 = fact(ws, { id: 'fct_c', validFrom: at(5), seq: 2 });
        const f4 = fact(ws, { id: 'fct_d', validFrom: at(9), seq: 0 });
        const f5 = fact(ws, { id: 'fct_e', validFrom: at(1), seq: 99 });
        for (const f of [f1, f2, f3, f4, f5]) await store.facts.insert(f);

        const all = await store.facts.query({ workspaceId: ws }, { limit: 10, offset: 0 });
        expect(ids(all.items)).toEqual(['fct_d', 'fct_c', 'fct_a', 'fct_b', 'fct_e']);
        expect(all.total).toBe(5);
        const page = await store.facts.query({ workspaceId: ws }, { limit: 2, offset: 2 });
        expect(ids(page.items)).toEqual(['fct_a', 'fct_b']);
        expect(page.total).toBe(5);
      });

      it('lists for context the first facts of the query order, live ones only, with the fields context uses', async () => {
        const ws = newWorkspaceId();
        const base = uid('fct_');
        const facts = [
          fact(ws, { id: `${base}_b`, userId: 'alice', validFrom: at(5), seq: 1, sourceMemoryIds: ['mem_1', 'mem_2'] }),
          fact(ws, { id: `${base}_a`, userId: 'alice', validFrom: at(5), seq: 1 }),
          fact(ws, { id: `${base}_c`, userId: 'bob', validFrom: at(9), seq: 0 }),
          fact(ws, { id: `${base}_d`, userId: 'alice', validFrom: at(7), seq: 3, invalidAt: at(8), invalidatedBy: 'fct_x' }),
        ];
        for (const f of facts) await store.facts.insert(f);
        const fields = ({ id, subject, subjectKey, predicate, predicateRaw, family, object, objectKey, validFrom, sourceMemoryIds }: FactRecord) =>
          ({ id, subject, subjectKey, predicate, predicateRaw, family, object, objectKey, validFrom, sourceMemoryIds });
        for (const [filter, limit] of [[{ workspaceId: ws }, 10], [{ workspaceId: ws }, 2], [{ workspaceId: ws, userId: 'alice' }, 10]] as const) {
          const queried = await store.facts.query(filter, { limit, offset: 0 });
          expect(await store.facts.listForContext(filter, limit)).toEqual(queried.items.map(fields));
        }
        expect((await store.facts.listForContext({ workspaceId: ws }, 10)).map((f) => f.id)).toEqual([`${base}_c`, `${base}_a`, `${base}_b`]);
        expect(await store.facts.listForContext({ workspaceId: ws }, 0)).toEqual([]);
      });

      it('filters by scope (null vs value vs any), run, subject, entity, predicate, family, source and ids', async () => {
        const ws = newWorkspaceId();
        const a = fact(ws, { userId: 'alice', agentId: null, runId: 'r1', subjectKey: 'user', objectKey: 'anna', predicate: 'sister', family: 'people', sourceMemoryId: 'mem_x', validFrom: at(1) });
        const b = fact(ws, { userId: 'alice', agentId: 'bot', subjectKey: 'anna', objectKey: 'paris', predicate: 'lives_in', family: 'places', validFrom: at(2) });
        const c = fact(ws, { userId: null, agentId: null, subjectKey: 'user', objectKey: 'tea', predicate: 'likes', family: 'preferences', validFrom: at(3) });
        const d = fact(ws, { userId: 'bob', agentId: 'bot', runId: 'r1', subjectKey: 'bob', objectKey: 'berlin', predicate: 'lives_in', family: 'places', sourceMemoryId: 'mem_x', validFrom: at(4) });
        for (const f of [a, b, c, d]) await store.facts.insert(f);
        const q = async (filter: Omit<Parameters<Store['facts']['query']>[0], 'workspaceId'>) =>
          sorted(ids((await store.facts.query({ workspaceId: ws, ...filter }, { limit: 50, offset: 0 })).items));

        expect(await q({})).toEqual(sorted([a.id, b.id, c.id, d.id]));
        expect(await q({ userId: 'alice' })).toEqual(sorted([a.id, b.id]));
        expect(await q({ userId: null })).toEqual([c.id]);
        expect(await q({ agentId: null })).toEqual(sorted([a.id, c.id]));
        expect(await q({ agentId: 'bot' })).toEqual(sorted([b.id, d.id]));
        expect(await q({ agentId: null, userId: null })).toEqual([c.id]);
        expect(await q({ runId: 'r1' })).toEqual(sorted([a.id, d.id]));
        expect(await q({ subjectKey: 'user' })).toEqual(sorted([a.id, c.id]));
        expect(await q({ entity: { subjectKeys: ['anna'], objectKeys: ['anna'] } })).toEqual(sorted([a.id, b.id]));
        expect(await q({ entity: { subjectKeys: ['anna'], objectKeys: ['anna'] }, userId: 'alice', agentId: null })).toEqual([a.id]);
        expect(await q({ entity: { subjectKeys: [], objectKeys: [] } })).toEqual([]);
        expect(await q({ predicate: 'lives_in' })).toEqual(sorted([b.id, d.id]));
        expect(await q({ family: 'people' })).toEqual([a.id]);
        expect(await q({ sourceMemoryId: 'mem_x' })).toEqual(sorted([a.id, d.id]));
        expect(await q({ ids: [a.id, c.id, uid('fct_')] })).toEqual(sorted([a.id, c.id]));
        expect(await q({ ids: [] })).toEqual([]);
        expect(await q({ predicate: 'lives_in', agentId: 'bot', userId: 'bob', runId: 'r1', family: 'places' })).toEqual([d.id]);
        expect((await store.facts.query({ workspaceId: newWorkspaceId() }, { limit: 5, offset: 0 })).total).toBe(0);
      });

      it('hides invalidated facts unless includeInvalidated; as_of selects facts valid at that instant', async () => {
        const ws = newWorkspaceId();
        const old = fact(ws, { object: 'Berlin', validFrom: at(10), invalidAt: at(20), invalidatedBy: 'fct_new' });
        const current = fact(ws, { object: 'Paris', validFrom: at(20), invalidated: [old.id] });
        const future = fact(ws, { object: 'Rome', validFrom: at(40) });
        for (const f of [old, current, future]) await store.facts.insert(f);
        const q = async (filter: Omit<Parameters<Store['facts']['query']>[0], 'workspaceId'>) =>
          ids((await store.facts.query({ workspaceId: ws, ...filter }, { limit: 50, offset: 0 })).items);

        expect(await q({})).toEqual([future.id, current.id]);
        expect(await q({ includeInvalidated: true })).toEqual([future.id, current.id, old.id]);
        expect(await q({ asOf: at(5) })).toEqual([]);
        expect(await q({ asOf: at(10) })).toEqual([old.id]); // valid_from <= as_of
        expect(await q({ asOf: at(15) })).toEqual([old.id]);
        expect(await q({ asOf: at(20) })).toEqual([current.id]); // invalid_at must be > as_of
        expect(await q({ asOf: at(50) })).toEqual([future.id, current.id]);
        // as_of wins over includeInvalidated
        expect(await q({ asOf: at(15), includeInvalidated: true })).toEqual([old.id]);
        expect((await store.facts.query({ workspaceId: ws, asOf: at(15) }, { limit: 10, offset: 0 })).total).toBe(1);
      });

      it('invalidates live facts only, once, within the workspace', async () => {
        const ws = newWorkspaceId();
        const a = fact(ws);
        const b = fact(ws);
        const dead = fact(ws, { invalidAt: at(1), invalidatedBy: 'fct_first' });
        const foreign = fact(newWorkspaceId());
        for (const f of [a, b, dead, foreign]) await store.facts.insert(f);

        expect(await store.facts.invalidate(ws, [a.id, b.id, dead.id, foreign.id, uid('fct_')], at(5), 'fct_winner')).toBe(2);
        expect(await store.facts.get(ws, a.id)).toEqual({ ...a, invalidAt: at(5), invalidatedBy: 'fct_winner' });
        expect(await store.facts.get(ws, dead.id)).toEqual(dead);
        expect(await store.facts.get(foreign.workspaceId, foreign.id)).toEqual(foreign);
        expect(await store.facts.invalidate(ws, [a.id, b.id], at(6), 'fct_other')).toBe(0);
        expect((await store.facts.get(ws, b.id))?.invalidatedBy).toBe('fct_winner');
        expect(await store.facts.invalidate(ws, [], at(6), 'x')).toBe(0);
      });

      it('keeps validFromStated; a future end can be moved earlier, never later; reopen restores what a cancelled plan ended', async () => {
        const ws = newWorkspaceId();
        const home = fact(ws, { predicate: 'lives_in', object: 'Berlin', objectKey: 'berlin', validFromStated: false });
        const other = fact(ws, { predicate: 'lives_in', object: 'Rome', objectKey: 'rome', invalidAt: at(2), invalidatedBy: 'fct_x' });
        for (const f of [home, other]) await store.facts.insert(f);
        expect((await store.facts.get(ws, home.id))?.validFromStated).toBe(false);

        // A planned move ends the current home in the future: still a candidate for facts before that.
        expect(await store.facts.invalidate(ws, [home.id], at(50), 'fct_plan')).toBe(1);
        const find = (openAt?: string) => store.facts.findLive({ workspaceId: ws, agentId: null, userId: null }, 'user', ['lives_in'], openAt).then(ids);
        expect(await find()).toEqual([]);
        expect(await find(at(10))).toEqual([home.id]);
        expect(await find(at(50))).toEqual([]);
        expect(await store.facts.invalidate(ws, [home.id], at(60), 'fct_later')).toBe(0);
        expect(await store.facts.invalidate(ws, [home.id], at(40), 'fct_plan')).toBe(1);
        expect((await store.facts.get(ws, home.id))?.invalidAt).toBe(at(40));

        expect(await store.facts.reopen(ws, 'fct_plan')).toEqual([home.id]);
        expect(await store.facts.get(ws, home.id)).toEqual(home);
        expect(await store.facts.reopen(ws, 'fct_plan')).toEqual([]);
        expect(await store.facts.reopen(newWorkspaceId(), 'fct_x')).toEqual([]);
        expect((await store.facts.get(ws, other.id))?.invalidatedBy).toBe('fct_x');
      });

      it('findLive matches one exact user scope (null is a value), subject and any predicate; oldest first', async () => {
        const ws = newWorkspaceId();
        const mk = (o: Parameters<typeof fact>[1]) => fact(ws, { subjectKey: 'user', predicate: 'lives_in', ...o });
        const defaultAnon = mk({ userId: null, agentId: null, validFrom: at(2) });
        const defaultAnonOlder = mk({ userId: null, agentId: null, predicate: 'moved_to', validFrom: at(1) });
        const defaultAlice = mk({ userId: 'alice', agentId: null });
        const botAnon = mk({ userId: null, agentId: 'bot' });
        const botAlice = mk({ userId: 'alice', agentId: 'bot' });
        const otherSubject = mk({ userId: null, agentId: null, subjectKey: 'anna' });
        const otherPredicate = mk({ userId: null, agentId: null, predicate: 'likes' });
        const dead = mk({ userId: null, agentId: null, invalidAt: at(3), invalidatedBy: 'x' });
        for (const f of [defaultAnon, defaultAnonOlder, defaultAlice, botAnon, botAlice, otherSubject, otherPredicate, dead]) await store.facts.insert(f);
        await store.facts.insert(fact(newWorkspaceId(), { subjectKey: 'user', predicate: 'lives_in' }));

        const live = (agentId: string | null, userId: string | null, predicates = ['lives_in', 'moved_to']) =>
          store.facts.findLive({ workspaceId: ws, agentId, userId }, 'user', predicates).then(ids);
        expect(await live(null, null)).toEqual([defaultAnonOlder.id, defaultAnon.id]);
        expect(await live(null, null, ['lives_in'])).toEqual([defaultAnon.id]);
        expect(await live(null, 'alice')).toEqual([defaultAlice.id]);
        expect(await live('bot', null)).toEqual([botAnon.id]);
        expect(await live('bot', 'alice')).toEqual([botAlice.id]);
        expect(await live('other', 'alice')).toEqual([]);
        expect(await live(null, null, [])).toEqual([]);
        expect(await store.facts.findLive({ workspaceId: ws, agentId: null, userId: null }, 'anna', ['lives_in']).then(ids)).toEqual([otherSubject.id]);
      });

      it('confirm adds a token once, bumps last_confirmed_at forward and links the confirming memory version', async () => {
        const ws = newWorkspaceId();
        const f = fact(ws, { confirmations: ['mem_a@1'], sourceMemoryId: 'mem_a', sourceMemoryIds: ['mem_a'], lastConfirmedAt: at(10) });
        await store.facts.insert(f);

        const once = await store.facts.confirm(ws, f.id, 'mem_b@1', { memoryId: 'mem_b', version: 1 }, at(20));
        const expected = { ...f, confirmations: ['mem_a@1', 'mem_b@1'], sourceMemoryIds: ['mem_a', 'mem_b'], lastConfirmedAt: at(20) };
        expect(once).toEqual(expected);
        // the same token again changes nothing
        expect(await store.facts.confirm(ws, f.id, 'mem_b@1', { memoryId: 'mem_b', version: 1 }, at(30))).toEqual(expected);
        expect(await store.facts.get(ws, f.id)).toEqual(expected);
        // an older confirmation does not move last_confirmed_at back; a known memory id is not repeated
        const older = await store.facts.confirm(ws, f.id, 'mem_a@2', { memoryId: 'mem_a', version: 2 }, at(15));
        expect(older).toEqual({ ...expected, confirmations: ['mem_a@1', 'mem_b@1', 'mem_a@2'] });
        // a confirmation without a source memory
        const sourceless = await store.facts.confirm(ws, f.id, 'import:1', null, at(40));
        expect(sourceless?.confirmations).toEqual(['mem_a@1', 'mem_b@1', 'mem_a@2', 'import:1']);
        expect(sourceless?.sourceMemoryIds).toEqual(['mem_a', 'mem_b']);
        expect(sourceless?.lastConfirmedAt).toBe(at(40));

        expect(await store.facts.confirm(ws, uid('fct_'), 't', null, at(1))).toBeNull();
        expect(await store.facts.confirm(newWorkspaceId(), f.id, 't2', null, at(1))).toBeNull();

        // confirmed-by versions list the fact
        expect(ids(await store.facts.listForMemory(ws, { memoryId: 'mem_b', version: 1 }))).toEqual([f.id]);
        expect(ids(await store.facts.listForMemory(ws, { memoryId: 'mem_a', version: 2 }))).toEqual([f.id]);
      });

      it('confirm is idempotent under concurrent retries of the same token', async () => {
        const ws = newWorkspaceId();
        const f = fact(ws);
        await store.facts.insert(f);
        await Promise.all(Array.from({ length: 6 }, () => store.facts.confirm(ws, f.id, 'mem_c@1', { memoryId: 'mem_c', version: 1 }, at(5))));
        const got = await store.facts.get(ws, f.id);
        expect(got?.confirmations).toEqual(['mem_c@1']);
        expect(got?.sourceMemoryIds).toEqual(['mem_c']);
      });

      it('listForMemory returns live facts of one memory version, by seq then id', async () => {
        const ws = newWorkspaceId();
        const v1a = fact(ws, { id: 'fct_v1a', sourceMemoryId: 'mem_m', sourceVersion: 1, seq: 2 });
        const v1b = fact(ws, { id: 'fct_v1b', sourceMemoryId: 'mem_m', sourceVersion: 1, seq: 1 });
        const v1dead = fact(ws, { sourceMemoryId: 'mem_m', sourceVersion: 1, invalidAt: at(1), invalidatedBy: 'x' });
        const v2 = fact(ws, { sourceMemoryId: 'mem_m', sourceVersion: 2 });
        const other = fact(ws, { sourceMemoryId: 'mem_other', sourceVersion: 1 });
        const sourceless = fact(ws, { sourceMemoryId: null });
        for (const f of [v1a, v1b, v1dead, v2, other, sourceless]) await store.facts.insert(f);

        expect(ids(await store.facts.listForMemory(ws, { memoryId: 'mem_m', version: 1 }))).toEqual(['fct_v1b', 'fct_v1a']);
        expect(ids(await store.facts.listForMemory(ws, { memoryId: 'mem_m', version: 2 }))).toEqual([v2.id]);
        expect(await store.facts.listForMemory(ws, { memoryId: 'mem_m', version: 3 })).toEqual([]);
        expect(await store.facts.listForMemory(newWorkspaceId(), { memoryId: 'mem_m', version: 1 })).toEqual([]);
        expect((await store.facts.listForMemory(ws, { memoryId: 'mem_m', version: 2 }))[0]).toEqual(v2);

        await store.facts.invalidate(ws, [v1a.id], at(9), 'y');
        expect(ids(await store.facts.listForMemory(ws, { memoryId: 'mem_m', version: 1 }))).toEqual(['fct_v1b']);
      });

      it('setInvalidated replaces the invalidated list idempotently', async () => {
        const ws = newWorkspaceId();
        const f = fact(ws, { invalidated: [] });
        await store.facts.insert(f);
        await store.facts.setInvalidated(ws, f.id, ['fct_1', 'fct_2']);
        await store.facts.setInvalidated(ws, f.id, ['fct_1', 'fct_2']);
        expect(await store.facts.get(ws, f.id)).toEqual({ ...f, invalidated: ['fct_1', 'fct_2'] });
        await store.facts.setInvalidated(newWorkspaceId(), f.id, ['nope']);
        expect((await store.facts.get(ws, f.id))?.invalidated).toEqual(['fct_1', 'fct_2']);
      });

      it('purge removes live and invalidated facts of a scope and reports which were live', async () => {
        const ws = newWorkspaceId();
        const live = fact(ws, { userId: 'alice', agentId: null, sourceMemoryId: 'mem_p', sourceVersion: 1 });
        const dead = fact(ws, { userId: 'alice', agentId: null, invalidAt: at(2), invalidatedBy: 'x' });
        const bot = fact(ws, { userId: 'alice', agentId: 'bot' });
        const bob = fact(ws, { userId: 'bob', agentId: null });
        for (const f of [live, dead, bot, bob]) await store.facts.insert(f);

        const removed = await store.facts.purge({ workspaceId: ws, agentId: null, userId: 'alice', includeInvalidated: true });
        expect(removed.sort((x, y) => x.id.localeCompare(y.id))).toEqual(
          [
            { id: live.id, live: true },
            { id: dead.id, live: false },
          ].sort((x, y) => x.id.localeCompare(y.id)),
        );
        expect(await store.facts.get(ws, live.id)).toBeNull();
        expect(await store.facts.get(ws, dead.id)).toBeNull();
        expect(await store.facts.listForMemory(ws, { memoryId: 'mem_p', version: 1 })).toEqual([]);
        expect(await store.facts.get(ws, bot.id)).not.toBeNull();
        expect(await store.facts.purge({ workspaceId: ws, agentId: 'bot' })).toEqual([{ id: bot.id, live: true }]);
        expect(await store.facts.purge({ workspaceId: ws })).toEqual([{ id: bob.id, live: true }]);
        expect(await store.facts.purge({ workspaceId: ws })).toEqual([]);
      });

      it('counts live facts overall, per user and per agent', async () => {
        const ws = newWorkspaceId();
        const rows = [
          fact(ws, { userId: 'alice', agentId: null }),
          fact(ws, { userId: 'alice', agentId: 'bot' }),
          fact(ws, { userId: 'alice', agentId: 'bot' }),
          fact(ws, { userId: 'bob', agentId: 'bot' }),
          fact(ws, { userId: 'bob', agentId: 'bot', invalidAt: at(1), invalidatedBy: 'x' }),
          fact(ws, { userId: null, agentId: 'helper' }),
        ];
        for (const f of rows) await store.facts.insert(f);

        expect(await store.facts.countLive({ workspaceId: ws })).toBe(5);
        expect(await store.facts.countLive({ workspaceId: ws, agentId: 'bot' })).toBe(3);
        expect(await store.facts.countLive({ workspaceId: ws, agentId: null })).toBe(1);
        expect(await store.facts.countLive({ workspaceId: ws, userId: 'bob', includeInvalidated: true })).toBe(1);

        const byUser = await store.facts.countLiveByUser(ws, undefined, ['alice', 'bob', 'carol']);
        expect(Object.fromEntries(byUser)).toEqual({ alice: 3, bob: 1 });
        expect(Object.fromEntries(await store.facts.countLiveByUser(ws, 'bot', ['alice', 'bob']))).toEqual({ alice: 2, bob: 1 });
        expect(Object.fromEntries(await store.facts.countLiveByUser(ws, null, ['alice', 'bob']))).toEqual({ alice: 1 });
        expect((await store.facts.countLiveByUser(ws, undefined, [])).size).toBe(0);

        expect(Object.fromEntries(await store.facts.countLiveByAgent(ws, ['bot', 'helper', 'none']))).toEqual({ bot: 3, helper: 1 });
        expect((await store.facts.countLiveByAgent(ws, [])).size).toBe(0);
      });
    });

    // ------------------------------------------------------------------ entities

    describe('entities', () => {
      it('resolve finds entities by canonical key or by alias, within the scope', async () => {
        const ws = newWorkspaceId();
        const scope = { workspaceId: ws, agentId: null, userId: 'alice' };
        await store.entities.upsert(scope, { canonical: 'anna', name: 'Anna', type: 'person', aliases: ['my sister', 'sister'] }, 'mem_1', at(1));
        await store.entities.upsert({ ...scope, userId: 'bob' }, { canonical: 'anna', name: 'Anna', type: 'person', aliases: [] }, 'mem_2', at(1));
        expect((await store.entities.resolve(scope, 'sister')).map((e) => e.name)).toEqual(['Anna']);
        expect((await store.entities.resolve(scope, 'anna')).map((e) => e.userId)).toEqual(['alice']);
        expect((await store.entities.resolve({ workspaceId: ws }, 'anna')).length).toBe(2);
        expect(await store.entities.resolve(scope, 'brother')).toEqual([]);
        expect(await store.entities.resolve({ workspaceId: newWorkspaceId() }, 'anna')).toEqual([]);
      });

      it('upsert merges by (scope, canonical): aliases and memory ids are sets; name and type are kept', async () => {
        const ws = newWorkspaceId();
        const scope = { workspaceId: ws, agentId: null, userId: 'alice' };
        await store.entities.upsert(scope, { canonical: 'anna', name: 'Anna', type: 'person', aliases: ['my sister'] }, 'mem_1', at(1));
        await store.entities.upsert(scope, { canonical: 'anna', name: 'ANNA', type: 'thing', aliases: ['sis', 'my sister'] }, 'mem_2', at(2));
        await store.entities.upsert(scope, { canonical: 'anna', name: 'Anna', type: 'person', aliases: [] }, 'mem_1', at(3));

        const [anna, ...rest] = await store.entities.find(scope, 'anna');
        expect(rest).toEqual([]);
        expect(anna).toMatchObject({ workspaceId: ws, agentId: null, userId: 'alice', canonical: 'anna', name: 'Anna', type: 'person', createdAt: at(1), updatedAt: at(3) });
        expect(typeof anna.id).toBe('string');
        expect(sorted(anna.aliases)).toEqual(['my sister', 'sis']);
        expect(sorted(anna.memoryIds)).toEqual(['mem_1', 'mem_2']);
      });

      it('concurrent upserts of one entity create it once', async () => {
        const ws = newWorkspaceId();
        const scope = { workspaceId: ws, agentId: 'bot', userId: null };
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            store.entities.upsert(scope, { canonical: 'paris', name: 'Paris', type: 'place', aliases: [`alias-${i % 2}`] }, `mem_${i}`, at(i)),
          ),
        );
        const found = await store.entities.find(scope, 'paris');
        expect(found).toHaveLength(1);
        expect(sorted(found[0].aliases)).toEqual(['alias-0', 'alias-1']);
        expect(found[0].memoryIds).toHaveLength(8);
      });

      it('keeps scopes apart; find treats null as a value and undefined as any', async () => {
        const ws = newWorkspaceId();
        const e = { canonical: 'berlin', name: 'Berlin', type: 'place' as const, aliases: [] };
        await store.entities.upsert({ workspaceId: ws, agentId: null, userId: null }, e, 'mem_1', at(1));
        await store.entities.upsert({ workspaceId: ws, agentId: null, userId: 'alice' }, e, 'mem_2', at(1));
        await store.entities.upsert({ workspaceId: ws, agentId: 'bot', userId: 'alice' }, e, 'mem_3', at(1));
        await store.entities.upsert({ workspaceId: newWorkspaceId(), agentId: null, userId: null }, e, 'mem_4', at(1));

        const memoriesOf = async (scope: Parameters<Store['entities']['find']>[0]) =>
          sorted((await store.entities.find(scope, 'berlin')).flatMap((x) => x.memoryIds));
        expect(await memoriesOf({ workspaceId: ws })).toEqual(['mem_1', 'mem_2', 'mem_3']);
        expect(await memoriesOf({ workspaceId: ws, agentId: null })).toEqual(['mem_1', 'mem_2']);
        expect(await memoriesOf({ workspaceId: ws, agentId: null, userId: null })).toEqual(['mem_1']);
        expect(await memoriesOf({ workspaceId: ws, userId: 'alice' })).toEqual(['mem_2', 'mem_3']);
        expect(await memoriesOf({ workspaceId: ws, agentId: 'bot', userId: 'alice' })).toEqual(['mem_3']);
        expect(await memoriesOf({ workspaceId: ws, agentId: 'bot', userId: null })).toEqual([]);
        expect(await store.entities.find({ workspaceId: ws }, 'nowhere')).toEqual([]);
      });

      it('lists by memory (by canonical) and unlinkMemory deletes entities left without memories', async () => {
        const ws = newWorkspaceId();
        const scope = { workspaceId: ws, agentId: null, userId: 'alice' };
        const mk = (canonical: string) => ({ canonical, name: canonical, type: 'thing' as const, aliases: [] });
        await store.entities.upsert(scope, mk('zebra'), 'mem_1', at(1));
        await store.entities.upsert(scope, mk('apple'), 'mem_1', at(1));
        await store.entities.upsert(scope, mk('apple'), 'mem_2', at(2));
        await store.entities.upsert(scope, mk('kiwi'), 'mem_2', at(2));

        expect((await store.entities.listByMemory(ws, 'mem_1')).map((x) => x.canonical)).toEqual(['apple', 'zebra']);
        expect((await store.entities.listByMemory(ws, 'mem_2')).map((x) => x.canonical)).toEqual(['apple', 'kiwi']);
        expect(await store.entities.listByMemory(newWorkspaceId(), 'mem_1')).toEqual([]);

        await store.entities.unlinkMemory(ws, 'mem_1');
        expect(await store.entities.listByMemory(ws, 'mem_1')).toEqual([]);
        expect(await store.entities.find(scope, 'zebra')).toEqual([]);
        const [apple] = await store.entities.find(scope, 'apple');
        expect(apple.memoryIds).toEqual(['mem_2']);
        await store.entities.unlinkMemory(ws, 'mem_1'); // idempotent
        await store.entities.unlinkMemory(ws, 'mem_2');
        expect(await store.entities.find({ workspaceId: ws }, 'apple')).toEqual([]);
        expect(await store.entities.find({ workspaceId: ws }, 'kiwi')).toEqual([]);
      });

      it('purge removes a scope and returns how many entities went', async () => {
        const ws = newWorkspaceId();
        const mk = (canonical: string) => ({ canonical, name: canonical, type: 'thing' as const, aliases: [] });
        await store.entities.upsert({ workspaceId: ws, agentId: null, userId: 'alice' }, mk('a'), 'mem_1', at(1));
        await store.entities.upsert({ workspaceId: ws, agentId: null, userId: 'alice' }, mk('b'), 'mem_1', at(1));
        await store.entities.upsert({ workspaceId: ws, agentId: 'bot', userId: 'alice' }, mk('a'), 'mem_2', at(1));
        await store.entities.upsert({ workspaceId: ws, agentId: null, userId: null }, mk('a'), 'mem_3', at(1));

        expect(await store.entities.purge({ workspaceId: ws, agentId: null, userId: 'alice' })).toBe(2);
        expect(await store.entities.listByMemory(ws, 'mem_1')).toEqual([]);
        expect(await store.entities.purge({ workspaceId: ws, agentId: null, userId: 'alice' })).toBe(0);
        expect(await store.entities.purge({ workspaceId: ws, userId: null })).toBe(1);
        expect(await store.entities.purge({ workspaceId: ws, agentId: 'bot' })).toBe(1);
        expect(await store.entities.purge({ workspaceId: ws })).toBe(0);
      });
    });

    // ------------------------------------------------------------------ history

    describe('history', () => {
      const event = (workspaceId: string, memoryId: string, kind: HistoryEventRecord['event'], when: string, id = uid('evt_')): HistoryEventRecord => ({
        id,
        workspaceId,
        memoryId,
        event: kind,
        at: when,
        factId: kind.startsWith('fact') ? uid('fct_') : null,
        fact: kind.startsWith('fact') ? 'user likes tea' : null,
      });

      it('appends insert-if-absent and lists oldest first, same instants in insertion order', async () => {
        const ws = newWorkspaceId();
        const created = event(ws, 'mem_1', 'created', at(1));
        const extracted = event(ws, 'mem_1', 'fact_extracted', at(2));
        const sameInstantA = event(ws, 'mem_1', 'updated', at(3), 'evt_zzz');
        const sameInstantB = event(ws, 'mem_1', 'fact_invalidated', at(3), 'evt_aaa');
        const deleted = event(ws, 'mem_1', 'deleted', at(4));
        await store.history.append([deleted, created]);
        await store.history.append([extracted, sameInstantA]);
        await store.history.append([sameInstantB]);
        // retried append: nothing duplicated, first write wins
        await store.history.append([{ ...created, event: 'updated' }, sameInstantA]);
        await store.history.append([event(ws, 'mem_2', 'created', at(0))]);
        await store.history.append([]);

        expect(await store.history.list(ws, 'mem_1')).toEqual([created, extracted, sameInstantA, sameInstantB, deleted]);
        expect(await store.history.list(newWorkspaceId(), 'mem_1')).toEqual([]);
      });

      it('purges the history of the given memories only', async () => {
        const ws = newWorkspaceId();
        const keep = event(ws, 'mem_keep', 'created', at(1));
        await store.history.append([event(ws, 'mem_a', 'created', at(1)), event(ws, 'mem_b', 'created', at(1)), keep]);
        const foreign = event(newWorkspaceId(), 'mem_a', 'created', at(1));
        await store.history.append([foreign]);

        await store.history.purgeMemories(ws, ['mem_a', 'mem_b']);
        await store.history.purgeMemories(ws, []);
        expect(await store.history.list(ws, 'mem_a')).toEqual([]);
        expect(await store.history.list(ws, 'mem_b')).toEqual([]);
        expect(await store.history.list(ws, 'mem_keep')).toEqual([keep]);
        expect(await store.history.list(foreign.workspaceId, 'mem_a')).toEqual([foreign]);
      });

      it('removes the given events of a workspace only', async () => {
        const ws = newWorkspaceId();
        const created = event(ws, 'mem_1', 'created', at(1));
        const updated = event(ws, 'mem_1', 'updated', at(2));
        const foreign = { ...event(newWorkspaceId(), 'mem_1', 'updated', at(2)), id: uid('evt_') };
        await store.history.append([created, updated, foreign]);

        await store.history.remove(ws, [updated.id, foreign.id]);
        await store.history.remove(ws, []);
        expect(await store.history.list(ws, 'mem_1')).toEqual([created]);
        expect(await store.history.list(foreign.workspaceId, 'mem_1')).toEqual([foreign]);
      });
    });

    // ------------------------------------------------------------------ audit

    describe('audit', () => {
      const record = (workspaceId: string, overrides: Partial<AuditRecord> = {}): AuditRecord => ({
        id: uid('aud_'),
        workspaceId,
        ts: at(0),
        actor: 'key_1',
        action: 'memory.delete',
        result: 'ok',
        userId: null,
        targetId: null,
        meta: {},
        ...overrides,
      });

      it('lists newest first (ts desc, id desc) with filters, inclusive time bounds and paging totals', async () => {
        const ws = newWorkspaceId();
        const r1 = record(ws, { ts: at(1), userId: 'alice', action: 'user.erase', targetId: 'alice', meta: { memories_deleted: 3, nested: { a: [1] } } });
        const r2a = record(ws, { id: 'aud_a', ts: at(2), userId: 'bob' });
        const r2b = record(ws, { id: 'aud_b', ts: at(2), userId: 'alice' });
        const r3 = record(ws, { ts: at(3), action: 'agent.purge' });
        for (const r of [r2a, r1, r3, r2b]) await store.audit.append(r);
        await store.audit.append(record(newWorkspaceId(), { ts: at(2) }));

        const list = async (filter: Omit<Parameters<Store['audit']['list']>[0], 'workspaceId'>, page = { limit: 10, offset: 0 }) =>
          store.audit.list({ workspaceId: ws, ...filter }, page);

        const all = await list({});
        expect(all.items).toEqual([r3, r2b, r2a, r1]);
        expect(all.total).toBe(4);
        expect(await list({}, { limit: 2, offset: 1 })).toEqual({ items: [r2b, r2a], total: 4 });
        expect(ids((await list({ userId: 'alice' })).items)).toEqual([r2b.id, r1.id]);
        expect(ids((await list({ action: 'memory.delete' })).items)).toEqual([r2b.id, r2a.id]);
        expect(ids((await list({ since: at(2) })).items)).toEqual([r3.id, r2b.id, r2a.id]);
        expect(ids((await list({ until: at(2) })).items)).toEqual([r2b.id, r2a.id, r1.id]);
        expect(await list({ since: at(2), until: at(2), userId: 'bob' })).toEqual({ items: [r2a], total: 1 });
      });
    });

    // ------------------------------------------------------------------ batches

    describe('batches', () => {
      it('remove deletes a batch in its own workspace only', async () => {
        const ws = newWorkspaceId();
        const batch = { id: uid('bat_'), workspaceId: ws, status: 'processing' as const, received: 2, imported: 0, failed: 0, errors: [], memoryIds: ['m1', 'm2'], createdAt: at(0), completedAt: null };
        await store.batches.insert(batch);
        await store.batches.remove(newWorkspaceId(), batch.id);
        expect(await store.batches.get(ws, batch.id)).not.toBeNull();
        await store.batches.remove(ws, batch.id);
        expect(await store.batches.get(ws, batch.id)).toBeNull();
        await store.batches.remove(ws, batch.id);
      });

      it('inserts and reads back, scoped by workspace', async () => {
        const ws = newWorkspaceId();
        const b = batch(ws, 2);
        await store.batches.insert(b);
        expect(await store.batches.get(ws, b.id)).toEqual(b);
        expect(await store.batches.get(newWorkspaceId(), b.id)).toBeNull();
        expect(await store.batches.get(ws, uid('bat_'))).toBeNull();
        const empty = batch(ws, 0, { status: 'completed', completedAt: at(0) });
        await store.batches.insert(empty);
        expect(await store.batches.get(ws, empty.id)).toEqual(empty);
      });

      it('listOpenWith finds the unfinished batches of a workspace holding any of the ids', async () => {
        const ws = newWorkspaceId();
        const open = batch(ws, 2, { memoryIds: ['m1', 'm2'] });
        const other = batch(ws, 1, { memoryIds: ['m3'] });
        const done = batch(ws, 1, { memoryIds: ['m1'], status: 'completed', completedAt: at(1) });
        const foreign = batch(newWorkspaceId(), 1, { memoryIds: ['m2'] });
        for (const b of [open, other, done, foreign]) await store.batches.insert(b);
        expect(await store.batches.listOpenWith(ws, ['m2', 'm1'])).toEqual([open]);
        expect(await store.batches.listOpenWith(ws, ['m9'])).toEqual([]);
      });

      it('records each item exactly once and completes when all are in', async () => {
        const ws = newWorkspaceId();
        const b = batch(ws, 3);
        await store.batches.insert(b);

        const r1 = await store.batches.recordItem(ws, b.id, 2, { ok: false, error: { index: 2, memory_id: 'mem_2', message: 'bad' } }, at(1));
        expect(r1).toMatchObject({ imported: 0, failed: 1, status: 'processing', completedAt: null });
        expect(r1?.errors).toEqual([{ index: 2, memory_id: 'mem_2', message: 'bad' }]);

        const r2 = await store.batches.recordItem(ws, b.id, 0, { ok: true }, at(2));
        expect(r2).toMatchObject({ imported: 1, failed: 1, status: 'processing' });
        // replays of an index, with either outcome, change nothing
        expect(await store.batches.recordItem(ws, b.id, 0, { ok: true }, at(3))).toEqual(r2);
        expect(await store.batches.recordItem(ws, b.id, 0, { ok: false, error: { index: 0, memory_id: 'mem_0', message: 'x' } }, at(3))).toEqual(r2);
        expect(await store.batches.recordItem(ws, b.id, 2, { ok: true }, at(3))).toEqual(r2);

        const done = await store.batches.recordItem(ws, b.id, 1, { ok: false, error: { index: 1, memory_id: 'mem_1', message: 'worse' } }, at(4));
        expect(done).toEqual({
          ...b,
          imported: 1,
          failed: 2,
          status: 'completed',
          completedAt: at(4),
          errors: [
            { index: 1, memory_id: 'mem_1', message: 'worse' },
            { index: 2, memory_id: 'mem_2', message: 'bad' },
          ],
        });
        expect(await store.batches.get(ws, b.id)).toEqual(done);
        expect(await store.batches.recordItem(ws, b.id, 1, { ok: true }, at(9))).toEqual(done);

        expect(await store.batches.recordItem(ws, uid('bat_'), 0, { ok: true }, at(1))).toBeNull();
        expect(await store.batches.recordItem(newWorkspaceId(), b.id, 0, { ok: true }, at(1))).toBeNull();
      });

      it('counts exactly under concurrent and repeated item reports', async () => {
        const ws = newWorkspaceId();
        const b = batch(ws, 12);
        await store.batches.insert(b);
        const reports = Array.from({ length: 12 }, (_, i) =>
          i % 4 === 0
            ? ({ ok: false, error: { index: i, memory_id: `mem_${i}`, message: `e${i}` } } as const)
            : ({ ok: true } as const),
        );
        await Promise.all([...reports, ...reports].map((outcome, n) => store.batches.recordItem(ws, b.id, n % 12, outcome, at(n))));
        const final = await store.batches.get(ws, b.id);
        expect(final).toMatchObject({ imported: 9, failed: 3, status: 'completed' });
        expect(final?.completedAt).not.toBeNull();
        expect(final?.errors.map((e) => e.index)).toEqual([0, 4, 8]);
      });

      it('forgetMemories drops erased memory ids (arrival list and item errors), keeping positions', async () => {
        const ws = newWorkspaceId();
        const b1 = batch(ws, 3, { memoryIds: ['mem_a', 'mem_b', 'mem_c'] });
        const b2 = batch(ws, 0, { memoryIds: ['mem_d'] });
        const foreign = batch(newWorkspaceId(), 0, { memoryIds: ['mem_a'] });
        for (const b of [b1, b2, foreign]) await store.batches.insert(b);
        await store.batches.recordItem(ws, b1.id, 0, { ok: false, error: { index: 0, memory_id: 'mem_a', message: 'bad' } }, at(1));
        await store.batches.recordItem(ws, b1.id, 1, { ok: false, error: { index: 1, memory_id: 'mem_b', message: 'bad' } }, at(1));

        await store.batches.forgetMemories(ws, ['mem_a', 'mem_c', 'mem_zzz']);
        await store.batches.forgetMemories(ws, []);
        const after = await store.batches.get(ws, b1.id);
        expect(after?.memoryIds).toEqual([null, 'mem_b', null]);
        expect(after?.errors).toEqual([
          { index: 0, memory_id: null, message: 'bad' },
          { index: 1, memory_id: 'mem_b', message: 'bad' },
        ]);
        expect(after).toMatchObject({ failed: 2, status: 'processing' });
        expect(await store.batches.get(ws, b2.id)).toEqual(b2);
        expect(await store.batches.get(foreign.workspaceId, foreign.id)).toEqual(foreign);
        // later item reports still count after the ids were dropped
        expect(await store.batches.recordItem(ws, b1.id, 2, { ok: true }, at(2))).toMatchObject({ imported: 1, status: 'completed' });
      });
    });

    // ------------------------------------------------------------------ locks

    describe('locks', () => {
      it('takes a free lease, refuses other owners, renews for the holder, releases by owner only', async () => {
        const key = uid('lock:');
        expect(await store.locks.tryAcquire(key, 'w1', 10_000)).toBe(true);
        expect(await store.locks.tryAcquire(key, 'w2', 10_000)).toBe(false);
        expect(await store.locks.tryAcquire(key, 'w1', 10_000)).toBe(true);
        await store.locks.release(key, 'w2');
        expect(await store.locks.tryAcquire(key, 'w2', 10_000)).toBe(false);
        await store.locks.release(key, 'w1');
        expect(await store.locks.tryAcquire(key, 'w2', 10_000)).toBe(true);
        expect(await store.locks.tryAcquire(key, 'w1', 10_000)).toBe(false);
        await store.locks.release(key, 'w2');
        await store.locks.release(uid('lock:'), 'w1'); // releasing an unknown lease is a no-op
        // keys are independent
        expect(await store.locks.tryAcquire(uid('lock:'), 'w2', 10_000)).toBe(true);
      });

      it('lets another owner take an expired lease', async () => {
        const key = uid('lock:');
        // Long enough to outlast the next call even on a loaded machine (a 40 ms one expired in between there).
        expect(await store.locks.tryAcquire(key, 'slow', 1_000)).toBe(true);
        expect(await store.locks.tryAcquire(key, 'fast', 10_000)).toBe(false);
        await sleep(1_300);
        expect(await store.locks.tryAcquire(key, 'fast', 10_000)).toBe(true);
        expect(await store.locks.tryAcquire(key, 'slow', 10_000)).toBe(false);
        // the old holder's late release does not free the new lease
        await store.locks.release(key, 'slow');
        expect(await store.locks.tryAcquire(key, 'third', 10_000)).toBe(false);
        await store.locks.release(key, 'fast');
      });

      it('grants a contended free lease to exactly one owner', async () => {
        const key = uid('lock:');
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => store.locks.tryAcquire(key, `owner-${i}`, 10_000)));
        expect(results.filter(Boolean)).toHaveLength(1);
      });
    });

    // ------------------------------------------------------------------ sequences

    describe('sequences', () => {
      it('starts at 1 and reserves consecutive ranges', async () => {
        const name = uid('seq:');
        expect(await store.sequences.next(name)).toBe(1);
        expect(await store.sequences.next(name)).toBe(2);
        expect(await store.sequences.next(name, 5)).toBe(3); // reserves 3..7
        expect(await store.sequences.next(name, 1)).toBe(8);
        expect(await store.sequences.next(uid('seq:'), 10)).toBe(1);
      });

      it('hands out disjoint ranges under concurrency', async () => {
        const name = uid('seq:');
        const firsts = await Promise.all(Array.from({ length: 20 }, () => store.sequences.next(name, 3)));
        const taken = firsts.flatMap((first) => [first, first + 1, first + 2]).sort((a, b) => a - b);
        expect(taken).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      });
    });

    // ------------------------------------------------------------------ workspace transfer

    describe('workspace transfer', () => {
      /** One workspace's records of every kind, with fresh ids, as restore writes them. */
      function records(ws: string, slug: string): TransferRecord[] {
        const m1 = memory(ws, { id: uid('mem_1'), userId: 'u1', agentId: 'bot', content: 'I live in Oslo', metadata: { 'a.b': 1, $x: [true] }, status: 'ready', version: 2, seq: 7, createdAt: at(1), updatedAt: at(5) });
        const m2 = memory(ws, { id: uid('mem_2'), content: '', status: 'ready', seq: 3, createdAt: at(2), updatedAt: at(6), deletedAt: at(6) });
        const old = fact(ws, { userId: 'u1', agentId: 'bot', predicate: 'lives_in', object: 'Bergen', objectKey: 'bergen', seq: 4, validFrom: at(1), sourceMemoryId: m1.id, sourceMemoryIds: [m1.id], invalidAt: at(5), invalidatedBy: 'pending', confirmations: [`${m1.id}@1`] });
        const now = fact(ws, { userId: 'u1', agentId: 'bot', predicate: 'lives_in', object: 'Oslo', objectKey: 'oslo', seq: 7, validFrom: at(5), validFromStated: false, sourceMemoryId: m1.id, sourceMemoryIds: [m1.id], sourceVersion: 2, invalidated: [old.id], confirmations: [`${m1.id}@2`, `${m2.id}@1`] });
        old.invalidatedBy = now.id;
        const history: HistoryEventRecord[] = [
          { id: uid('hst_'), workspaceId: ws, memoryId: m1.id, event: 'created', at: at(1), factId: null, fact: null },
          { id: uid('hst_'), workspaceId: ws, memoryId: m1.id, event: 'updated', at: at(5), factId: null, fact: null },
          { id: uid('hst_'), workspaceId: ws, memoryId: m1.id, event: 'fact_invalidated', at: at(5), factId: old.id, fact: 'user lives_in Bergen' },
          { id: uid('hst_'), workspaceId: ws, memoryId: m1.id, event: 'fact_extracted', at: at(5), factId: now.id, fact: 'user lives_in Oslo' },
          { id: uid('hst_'), workspaceId: ws, memoryId: m2.id, event: 'deleted', at: at(6), factId: null, fact: null },
        ];
        return [
          { kind: 'workspace', record: { id: ws, slug, plan: 'team', createdAt: at(0) } },
          { kind: 'agent', record: { workspaceId: ws, agentId: 'bot', createdAt: at(1) } },
          { kind: 'key', record: { id: uid('key_'), workspaceId: ws, hash: uid('restored:'), scopes: ['memories:read'], agentId: 'bot', createdAt: at(0), revokedAt: at(9) } },
          { kind: 'memory', record: m1 },
          { kind: 'memory', record: m2 },
          ...history.map((record) => ({ kind: 'history' as const, record })),
          { kind: 'fact', record: old, sourceRefs: [`${m1.id}@1`] },
          { kind: 'fact', record: now, sourceRefs: [`${m1.id}@2`, `${m2.id}@1`] },
          { kind: 'entity', record: { id: uid('ent_'), workspaceId: ws, agentId: 'bot', userId: 'u1', canonical: 'oslo', name: 'Oslo', type: 'place', aliases: ['christiania', 'oslo'], memoryIds: [m1.id], createdAt: at(1), updatedAt: at(5) } },
          { kind: 'audit', record: { id: uid('aud_'), workspaceId: ws, ts: at(6), actor: 'key_x', action: 'memory.delete', result: 'ok', userId: null, targetId: m2.id, meta: { 'k.y': { $z: 1 } } } },
        ];
      }

      const readAll = async (ws: string) => {
        const out: TransferRecord[] = [];
        for await (const r of store.transfer.read(ws)) out.push(r);
        return out;
      };

      it('writes records verbatim and reads them back kind by kind; the repositories see them', async () => {
        const ws = newWorkspaceId();
        const slug = uid('tr-');
        const all = records(ws, slug);
        expect(await store.transfer.isEmpty(ws, slug)).toBe(true);
        // workspace record last, as restore writes it
        await store.transfer.write(all.slice(1));
        await store.transfer.write(all.slice(0, 1));
        expect(await store.transfer.isEmpty(ws, slug)).toBe(false);
        expect(await store.transfer.isEmpty(newWorkspaceId(), slug)).toBe(false); // the slug is taken

        const back = await readAll(ws);
        expect(back.map((r) => r.kind)).toEqual(all.map((r) => r.kind));
        expect(back).toEqual(all);

        const [m1, m2] = all.filter((r) => r.kind === 'memory').map((r) => r.record as MemoryRecord);
        const facts = all.filter((r) => r.kind === 'fact').map((r) => r.record as FactRecord);
        expect(await store.memories.get(ws, m1.id)).toEqual(m1);
        expect((await store.memories.list({ workspaceId: ws }, { limit: 10, offset: 0 })).items).toEqual([m1]);
        expect(await store.history.list(ws, m1.id)).toEqual(all.filter((r) => r.kind === 'history' && r.record.memoryId === m1.id).map((r) => r.record));
        expect(ids(await store.facts.listForMemory(ws, { memoryId: m2.id, version: 1 }))).toEqual([facts[1].id]);
        expect(ids((await store.facts.query({ workspaceId: ws, asOf: at(3) }, { limit: 10, offset: 0 })).items)).toEqual([facts[0].id]);
        expect((await store.entities.resolve({ workspaceId: ws }, 'christiania')).map((e) => e.name)).toEqual(['Oslo']);
        expect((await store.entities.listByMemory(ws, m1.id)).map((e) => e.canonical)).toEqual(['oslo']);
        expect(await store.agents.exists(ws, 'bot')).toBe(true);
        expect(await store.agents.register(ws, 'other', 2, at(9))).toBe('created');
        expect(await store.agents.register(ws, 'third', 2, at(9))).toBe('cap_exceeded');
        expect((await store.audit.list({ workspaceId: ws }, { limit: 10, offset: 0 })).items).toEqual([all[all.length - 1].record]);
      });

      it('writes insert-if-absent: a repeated write changes nothing', async () => {
        const ws = newWorkspaceId();
        const all = records(ws, uid('tr-'));
        await store.transfer.write(all);
        const changed = all.map((r) => (r.kind === 'memory' ? { ...r, record: { ...r.record, content: 'changed' } } : r));
        await store.transfer.write(changed);
        expect(await readAll(ws)).toEqual(all);
      });

      it('reads nothing of other workspaces, and nothing for an unknown one', async () => {
        const a = newWorkspaceId();
        const b = newWorkspaceId();
        await store.transfer.write(records(a, uid('tr-')));
        await store.transfer.write(records(b, uid('tr-')));
        expect((await readAll(a)).every((r) => (r.kind === 'workspace' ? r.record.id : r.record.workspaceId) === a)).toBe(true);
        expect(await readAll(newWorkspaceId())).toEqual([]);
      });
    });

    // ------------------------------------------------------------------ settings

    describe('settings', () => {
      it('reads null for unknown keys and overwrites values', async () => {
        const key = uid('setting:');
        expect(await store.settings.get(key)).toBeNull();
        await store.settings.set(key, 'glove-sg100d+ngram-v1');
        expect(await store.settings.get(key)).toBe('glove-sg100d+ngram-v1');
        await store.settings.set(key, '');
        expect(await store.settings.get(key)).toBe('');
        await Promise.all([store.settings.set(key, 'a'), store.settings.set(key, 'a')]);
        expect(await store.settings.get(key)).toBe('a');
      });
    });
  });
}
