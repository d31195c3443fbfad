/**
 * The behaviour every `VectorIndex` backend must have, as documented in
 * storage/vector/types.ts. Every test writes into fresh random workspaces, so the
 * suite can share a search cluster (and an index) with other runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VectorDoc, VectorIndex } from '../vector/types.js';
import { newWorkspaceId, uid, unit } from './fixtures.js';

/** Dimensions of every vector the suite writes; `open` receives it. */
export const CONTRACT_DIMENSIONS = 4;

const doc = (workspaceId: string, vector: Float32Array, overrides: Partial<VectorDoc> = {}): VectorDoc => ({
  id: uid('mem_'),
  workspaceId,
  agentId: null,
  userId: null,
  runId: null,
  metadataTerms: [],
  vector,
  ...overrides,
});

const SCORE_DIGITS = 5;

export function describeVectorIndexContract(
  name: string,
  open: (dimensions: number) => Promise<VectorIndex>,
  /** Called after the suite, before `close()`, e.g. to delete a test index. */
  cleanup?: (index: VectorIndex) => Promise<void>,
): void {
  describe(`VectorIndex contract: ${name}`, () => {
    let index: VectorIndex;

    beforeAll(async () => {
      index = await open(CONTRACT_DIMENSIONS);
    });

    afterAll(async () => {
      if (!index) return;
      try {
        if (cleanup) await cleanup(index);
      } finally {
        await index.close();
      }
    });

    it('pings', async () => {
      await expect(index.ping()).resolves.toBeUndefined();
    });

    it('exports a workspace\'s vectors exactly, by ascending id, and nothing of other workspaces', async () => {
      const ws = newWorkspaceId();
      const docs = Array.from({ length: 7 }, (_, i) => doc(ws, unit(1, i + 0.1234567, -(i + 1) / 3, 0.5), { id: `mem_${String(i).padStart(2, '0')}_${uid()}` }));
      await index.upsert([...docs].reverse());
      await index.upsert([doc(newWorkspaceId(), unit(1, 1, 1, 1))]);
      await index.remove(ws, [docs[3].id]);
      const out: { id: string; vector: Float32Array }[] = [];
      for await (const v of index.exportVectors(ws)) out.push(v);
      const kept = docs.filter((_, i) => i !== 3);
      expect(out.map((v) => v.id)).toEqual(kept.map((d) => d.id));
      for (const [i, v] of out.entries()) expect(Array.from(v.vector)).toEqual(Array.from(kept[i].vector));
      const none: unknown[] = [];
      for await (const v of index.exportVectors(newWorkspaceId())) none.push(v);
      expect(none).toEqual([]);
    });

    it('returns the top k by descending cosine, with cosine scores in [-1, 1]', async () => {
      const ws = newWorkspaceId();
      const q = unit(1, 0, 0, 0);
      const same = doc(ws, unit(1, 0, 0, 0));
      const close = doc(ws, unit(1, 1, 0, 0));
      const orthogonal = doc(ws, unit(0, 0, 1, 0));
      const opposite = doc(ws, unit(-1, 0, 0, 0));
      const obtuse = doc(ws, unit(-1, 1, 0, 0));
      await index.upsert([orthogonal, opposite, same, obtuse, close]);

      const hits = await index.search(q, { workspaceId: ws }, 10);
      expect(hits.map((h) => h.id)).toEqual([same.id, close.id, orthogonal.id, obtuse.id, opposite.id]);
      const expected = [1, Math.SQRT1_2, 0, -Math.SQRT1_2, -1];
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i], SCORE_DIGITS));

      const top2 = await index.search(q, { workspaceId: ws }, 2);
      expect(top2.map((h) => h.id)).toEqual([same.id, close.id]);
      expect(await index.search(q, { workspaceId: ws }, 0)).toEqual([]);
      expect(await index.search(q, { workspaceId: newWorkspaceId() }, 5)).toEqual([]);
    });

    it('breaks score ties by ascending id, also at the k boundary', async () => {
      const ws = newWorkspaceId();
      const v = unit(0.3, 0.2, 0.9, 0.1);
      const tied = ['mem_t4', 'mem_t1', 'mem_t5', 'mem_t3', 'mem_t2'].map((id) => doc(ws, v, { id: `${id}_${ws}` }));
      const lateTwin = doc(ws, unit(0.3, 0.2, 0.9, 0.1), { id: `mem_t9_${ws}` });
      const worse = doc(ws, unit(-0.3, 0.2, 0.9, 0.1), { id: `mem_t0_${ws}` });
      await index.upsert([...tied, worse]);
      const all = await index.search(v, { workspaceId: ws }, 10);
      expect(all.map((h) => h.id)).toEqual([...['mem_t1', 'mem_t2', 'mem_t3', 'mem_t4', 'mem_t5'].map((id) => `${id}_${ws}`), worse.id]);
      const three = await index.search(v, { workspaceId: ws }, 3);
      expect(three.map((h) => h.id)).toEqual(['mem_t1', 'mem_t2', 'mem_t3'].map((id) => `${id}_${ws}`));
      expect(new Set(three.map((h) => h.score)).size).toBe(1);

      // identical vectors under different ids stay tied, whichever was written last
      await index.upsert([lateTwin]);
      const again = await index.search(v, { workspaceId: ws }, 2);
      expect(again.map((h) => h.id)).toEqual([`mem_t1_${ws}`, `mem_t2_${ws}`]);
    });

    it('upsert replaces a document by id (vector and scope)', async () => {
      const ws = newWorkspaceId();
      const d = doc(ws, unit(1, 0, 0, 0), { userId: 'alice' });
      await index.upsert([d]);
      await index.upsert([{ ...d, vector: unit(0, 1, 0, 0), userId: 'bob', metadataTerms: ['topic="food"'] }]);

      const hits = await index.search(unit(0, 1, 0, 0), { workspaceId: ws }, 5);
      expect(hits).toHaveLength(1);
      expect(hits[0].id).toBe(d.id);
      expect(hits[0].score).toBeCloseTo(1, SCORE_DIGITS);
      expect(await index.search(unit(0, 1, 0, 0), { workspaceId: ws, userId: 'alice' }, 5)).toEqual([]);
      expect((await index.search(unit(0, 1, 0, 0), { workspaceId: ws, userId: 'bob', metadataTerms: ['topic="food"'] }, 5)).map((h) => h.id)).toEqual([d.id]);
      await index.upsert([]);
    });

    it('filters by workspace, agent (null = default namespace only, undefined = any), user, run and metadata terms', async () => {
      const ws = newWorkspaceId();
      const other = newWorkspaceId();
      const q = unit(1, 1, 1, 1);
      const defaultNs = doc(ws, unit(1, 1, 1, 0.9), { userId: 'alice', runId: 'r1', metadataTerms: ['lang="en"', 'topic="food"'] });
      const bot = doc(ws, unit(1, 1, 0.9, 0.9), { agentId: 'bot', userId: 'alice', metadataTerms: ['lang="en"'] });
      const botBob = doc(ws, unit(1, 0.9, 0.9, 0.9), { agentId: 'bot', userId: 'bob', runId: 'r1', metadataTerms: ['topic="food"', 'n=3'] });
      const anon = doc(ws, unit(0.5, 1, 1, 1), { metadataTerms: ['flag=true'] });
      const foreign = doc(other, unit(1, 1, 1, 1), { userId: 'alice' });
      await index.upsert([defaultNs, bot, botBob, anon, foreign]);

      const found = async (filter: Omit<Parameters<VectorIndex['search']>[1], 'workspaceId'>) =>
        (await index.search(q, { workspaceId: ws, ...filter }, 10)).map((h) => h.id).sort();
      const idsOf = (...docs: VectorDoc[]) => docs.map((d) => d.id).sort();

      expect(await found({})).toEqual(idsOf(defaultNs, bot, botBob, anon));
      expect(await found({ agentId: undefined })).toEqual(idsOf(defaultNs, bot, botBob, anon));
      expect(await found({ agentId: null })).toEqual(idsOf(defaultNs, anon));
      expect(await found({ agentId: 'bot' })).toEqual(idsOf(bot, botBob));
      expect(await found({ agentId: 'nobody' })).toEqual([]);
      expect(await found({ userId: 'alice' })).toEqual(idsOf(defaultNs, bot));
      expect(await found({ userId: 'alice', agentId: null })).toEqual(idsOf(defaultNs));
      expect(await found({ runId: 'r1' })).toEqual(idsOf(defaultNs, botBob));
      expect(await found({ metadataTerms: ['topic="food"'] })).toEqual(idsOf(defaultNs, botBob));
      expect(await found({ metadataTerms: ['topic="food"', 'lang="en"'] })).toEqual(idsOf(defaultNs));
      expect(await found({ metadataTerms: ['topic="food"', 'lang="fr"'] })).toEqual([]);
      expect(await found({ metadataTerms: ['flag=true'] })).toEqual(idsOf(anon));
      expect(await found({ metadataTerms: [] })).toEqual(idsOf(defaultNs, bot, botBob, anon));
      expect(await found({ agentId: 'bot', userId: 'bob', runId: 'r1', metadataTerms: ['n=3'] })).toEqual(idsOf(botBob));

      const foreignHits = await index.search(q, { workspaceId: other }, 10);
      expect(foreignHits.map((h) => h.id)).toEqual([foreign.id]);
    });

    it('matches long metadata terms exactly', async () => {
      const ws = newWorkspaceId();
      const long = `note=${JSON.stringify('x'.repeat(40_000))}`;
      const longer = `note=${JSON.stringify('x'.repeat(40_001))}`;
      const d = doc(ws, unit(1, 0, 0, 0), { metadataTerms: [long, 'short=1'] });
      await index.upsert([d]);
      expect((await index.search(unit(1, 0, 0, 0), { workspaceId: ws, metadataTerms: [long] }, 5)).map((h) => h.id)).toEqual([d.id]);
      expect(await index.search(unit(1, 0, 0, 0), { workspaceId: ws, metadataTerms: [longer] }, 5)).toEqual([]);
    });

    it('removes ids within the given workspace only', async () => {
      const ws = newWorkspaceId();
      const a = doc(ws, unit(1, 0, 0, 0));
      const b = doc(ws, unit(0, 1, 0, 0));
      const foreign = doc(newWorkspaceId(), unit(1, 0, 0, 0));
      await index.upsert([a, b, foreign]);

      await index.remove(ws, [a.id, foreign.id, uid('mem_')]);
      await index.remove(ws, []);
      expect((await index.search(unit(1, 0, 0, 0), { workspaceId: ws }, 5)).map((h) => h.id)).toEqual([b.id]);
      expect((await index.search(unit(1, 0, 0, 0), { workspaceId: foreign.workspaceId }, 5)).map((h) => h.id)).toEqual([foreign.id]);
      await index.remove(ws, [a.id]); // idempotent

      // a removed id can be written again
      await index.upsert([a]);
      expect((await index.search(unit(1, 0, 0, 0), { workspaceId: ws }, 1)).map((h) => h.id)).toEqual([a.id]);
    });

    it('purges a scope: user (null = no user), agent (null = default namespace) or the whole workspace', async () => {
      const ws = newWorkspaceId();
      const q = unit(1, 1, 0, 0);
      const aliceDefault = doc(ws, q, { userId: 'alice' });
      const aliceBot = doc(ws, q, { userId: 'alice', agentId: 'bot' });
      const bobDefault = doc(ws, q, { userId: 'bob' });
      const anonDefault = doc(ws, q);
      const anonBot = doc(ws, q, { agentId: 'bot' });
      const helper = doc(ws, q, { agentId: 'helper', userId: 'carol' });
      const foreign = doc(newWorkspaceId(), q, { userId: 'alice' });
      await index.upsert([aliceDefault, aliceBot, bobDefault, anonDefault, anonBot, helper, foreign]);
      const remaining = async () => (await index.search(q, { workspaceId: ws }, 20)).map((h) => h.id).sort();
      const idsOf = (...docs: VectorDoc[]) => docs.map((d) => d.id).sort();

      await index.purge({ workspaceId: ws, agentId: null, userId: 'alice' });
      expect(await remaining()).toEqual(idsOf(aliceBot, bobDefault, anonDefault, anonBot, helper));
      await index.purge({ workspaceId: ws, userId: null });
      expect(await remaining()).toEqual(idsOf(aliceBot, bobDefault, helper));
      await index.purge({ workspaceId: ws, agentId: 'bot' });
      expect(await remaining()).toEqual(idsOf(bobDefault, helper));
      await index.purge({ workspaceId: ws, agentId: null });
      expect(await remaining()).toEqual(idsOf(helper));
      await index.purge({ workspaceId: ws, agentId: 'nobody' });
      expect(await remaining()).toEqual(idsOf(helper));
      await index.purge({ workspaceId: ws });
      expect(await remaining()).toEqual([]);
      expect((await index.search(q, { workspaceId: foreign.workspaceId }, 5)).map((h) => h.id)).toEqual([foreign.id]);
    });

    it('keeps exact ranking among many candidates under a restrictive filter', async () => {
      const ws = newWorkspaceId();
      const docs: VectorDoc[] = [];
      for (let i = 0; i < 60; i++) {
        const angle = (i / 60) * Math.PI;
        docs.push(doc(ws, unit(Math.cos(angle), Math.sin(angle), 0.1, 0), { id: `mem_${String(i).padStart(3, '0')}_${ws}`, userId: i % 3 === 0 ? 'alice' : 'bob' }));
      }
      await index.upsert(docs);
      const q = unit(1, 0, 0.1, 0);
      const hits = await index.search(q, { workspaceId: ws, userId: 'alice' }, 5);
      expect(hits.map((h) => h.id)).toEqual([0, 3, 6, 9, 12].map((i) => `mem_${String(i).padStart(3, '0')}_${ws}`));
      for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
    });

    it('searchText ranks documents by BM25 over their text, stemmed, within the scope filter', async () => {
      const ws = newWorkspaceId();
      const v = unit(1, 0, 0, 0);
      const beagle = doc(ws, v, { userId: 'alice', text: 'I adopted a beagle puppy and named him Max' });
      const cat = doc(ws, v, { userId: 'alice', text: 'My sister adopted a cat from the shelter last spring, a grey one with long hair' });
      const hiking = doc(ws, v, { userId: 'alice', text: 'We went hiking in the Alps' });
      const bob = doc(ws, v, { userId: 'bob', text: 'Bob adopted a beagle too' });
      const silent = doc(ws, v, { userId: 'alice' });
      await index.upsert([beagle, cat, hiking, bob, silent]);

      const hits = await index.searchText('Which beagle did she adopt?', { workspaceId: ws, userId: 'alice' }, 10);
      expect(hits.map((h) => h.id)).toEqual([beagle.id, cat.id]);
      expect(hits[0].score).toBeGreaterThan(hits[1].score);
      expect(hits[1].score).toBeGreaterThan(0);
      expect((await index.searchText('adopting', { workspaceId: ws }, 10)).map((h) => h.id).sort()).toEqual([beagle.id, bob.id, cat.id].sort());
      expect(await index.searchText('adopting', { workspaceId: ws }, 1)).toHaveLength(1);
      expect(await index.searchText('the of and', { workspaceId: ws }, 10)).toEqual([]);
      expect(await index.searchText('beagle', { workspaceId: newWorkspaceId() }, 10)).toEqual([]);

      const stats = await index.termStatistics(ws, 'adopted beagles');
      expect(stats.documents).toBeGreaterThanOrEqual(4);
      expect(stats.frequencies.get('adopt')).toBeGreaterThanOrEqual(3);
      expect(stats.frequencies.get('beagl')).toBeGreaterThanOrEqual(2);
    });

    it('keeps the text index in step with upsert, remove and purge', async () => {
      const ws = newWorkspaceId();
      const v = unit(0, 1, 0, 0);
      const a = doc(ws, v, { userId: 'alice', text: 'quokka sightings on Rottnest island' });
      const b = doc(ws, v, { userId: 'bob', text: 'quokka photos' });
      await index.upsert([a, b]);
      await index.upsert([{ ...a, text: 'kangaroo sightings' }]);
      expect((await index.searchText('quokka', { workspaceId: ws }, 10)).map((h) => h.id)).toEqual([b.id]);
      expect((await index.searchText('kangaroo', { workspaceId: ws }, 10)).map((h) => h.id)).toEqual([a.id]);
      await index.remove(ws, [a.id]);
      expect(await index.searchText('kangaroo', { workspaceId: ws }, 10)).toEqual([]);
      await index.purge({ workspaceId: ws, userId: 'bob' });
      expect(await index.searchText('quokka', { workspaceId: ws }, 10)).toEqual([]);
    });
  });
}
