import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeVectorIndexContract } from '../contract/vector-contract.js';
import { openDatabase } from '../sqlite/store.js';
import { EmbeddedVectorIndex } from './embedded.js';
import { GraphPartition } from './graph-partition.js';
import { GraphSnapshots } from './graph-snapshots.js';
import { textScopeWord } from '../sqlite/text-scope.js';

let dir: string | null = null;
let db: Database.Database | null = null;

describeVectorIndexContract(
  'embedded',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-vector-contract-'));
    db = openDatabase(dir);
    return EmbeddedVectorIndex.open(db);
  },
  async () => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
);

describeVectorIndexContract(
  'embedded, every workspace in a graph',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-vector-contract-'));
    db = openDatabase(dir);
    return EmbeddedVectorIndex.open(db, { graphMinRows: 0 });
  },
  async () => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
);

describe('embedded keyword index erasure', () => {
  it('keeps no trace of a removed or purged text in the FTS5 index (contentless, secure-delete)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-erasure-'));
    const database = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database);
      const v = new Float32Array([1, 0, 0, 0]);
      const base = { workspaceId: 'ws_fts', agentId: null, runId: null, metadataTerms: [], vector: v };
      await index.upsert([
        { ...base, id: 'mem_1', userId: 'alice', text: 'my zanzibar passport number is 99817' },
        { ...base, id: 'mem_2', userId: 'bob', text: 'bob likes xylophones' },
      ]);
      const terms = () => (database.prepare('SELECT term FROM text_index_terms').all() as { term: string }[]).map((r) => r.term);
      expect(terms()).toEqual(expect.arrayContaining(['zanzibar', '99817', 'xylophon']));
      await index.remove('ws_fts', ['mem_1']);
      await index.purge({ workspaceId: 'ws_fts', userId: 'bob' });
      index.optimizeText();
      expect(terms()).toEqual([]);
      expect(database.prepare('SELECT count(*) AS n FROM text_docs').get()).toEqual({ n: 0 });
      // The index stores no copy of the text at all (contentless table).
      expect(database.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'text_index_content'").get()).toEqual({ n: 0 });
      const secure = database.prepare("SELECT v FROM text_index_config WHERE k = 'secure-delete'").get() as { v: number };
      expect(secure.v).toBe(1);
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('embedded term statistics', () => {
  it('count the documents after every keyword-index write, through this index or another connection, and not after other writes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-count-'));
    const database = openDatabase(folder);
    const other = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database);
      const writer = EmbeddedVectorIndex.openWriter(other);
      const doc = (id: string) => ({ id, workspaceId: 'ws_count', agentId: null, userId: 'u', runId: null, metadataTerms: [], vector: new Float32Array([1, 0, 0, 0]), text: `walks the dog ${id}` });
      const documents = async () => (await index.termStatistics('ws_count', 'dog')).documents;
      expect(await documents()).toBe(0);
      await index.upsert([doc('mem_1'), doc('mem_2')]);
      expect(await documents()).toBe(2);
      await writer.upsert([doc('mem_3')]);
      expect(await documents()).toBe(3);
      await index.remove('ws_count', ['mem_1']);
      expect(await documents()).toBe(2);
      database.exec('CREATE TABLE IF NOT EXISTS unrelated (x); INSERT INTO unrelated VALUES (1)');
      expect(await documents()).toBe(2);
      await index.close();
    } finally {
      other.close();
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('in a large index, give each term its document count within 1% of the documents, counted again once the index has changed more', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-frequencies-'));
    const database = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database);
      const doc = (n: number, text: string) => ({ id: `mem_${n}`, workspaceId: 'ws_df', agentId: null, userId: 'u', runId: null, metadataTerms: [], vector: new Float32Array([1, 0, 0, 0]), text });
      const add = (from: number, count: number, text: string) => index.upsert(Array.from({ length: count }, (_, i) => doc(from + i, text)));
      const dogs = async () => (await index.termStatistics('ws_df', 'dogs')).frequencies.get('dog') ?? 0;
      await add(0, 9_000, 'walks the dog');
      await add(9_000, 1_000, 'feeds the cat');
      expect(await dogs()).toBe(9_000);
      // Within 1% of 10,000 documents the count may be the one taken before; it is never further off.
      await add(10_000, 60, 'walks the dog');
      expect(Math.abs((await dogs()) - 9_060)).toBeLessThanOrEqual(100);
      await add(10_060, 100, 'walks the dog');
      expect(await dogs()).toBe(9_160);
      await index.remove('ws_df', Array.from({ length: 300 }, (_, i) => `mem_${i}`));
      expect(await dogs()).toBe(8_860);
      expect((await index.termStatistics('ws_df', 'cat')).frequencies.get('cat')).toBe(1_000);
      await index.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('embedded keyword top k', () => {
  it('returns the first k of the full BM25 ranking, ties in the order the documents were indexed, in every scope', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-top-k-'));
    const database = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database);
      const words = ['dog', 'walk', 'park', 'coffee', 'morning', 'sister', 'lives', 'rome', 'guitar', 'lessons', 'cats'];
      // Few distinct texts over many documents: BM25 ties are the rule.
      await index.upsert(
        Array.from({ length: 240 }, (_, i) => ({
          id: `mem_${String((i * 7919) % 1000).padStart(4, '0')}_${i}`,
          workspaceId: i % 5 === 0 ? 'ws_other' : 'ws_top',
          agentId: i % 3 === 0 ? 'agent_a' : null,
          userId: `user${i % 4}`,
          runId: null,
          metadataTerms: i % 2 ? ['topic="pets"'] : [],
          vector: new Float32Array([1, 0, 0, 0]),
          text: Array.from({ length: 3 + (i % 4) }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
        })),
      );
      const scopes = [{}, { userId: 'user1' }, { agentId: null }, { agentId: 'agent_a', metadataTerms: ['topic="pets"'] }];
      for (const query of ['dog walk', 'coffee in the morning', 'Where does her sister live?', 'cats']) {
        for (const scope of scopes) {
          const filter = { workspaceId: 'ws_top', ...scope };
          const everything = await index.searchText(query, filter, 10_000);
          expect(everything.length).toBeGreaterThan(5);
          const indexed = (h: { id: string }) => Number(h.id.split('_').at(-1));
          expect(everything.every((h, i) => i === 0 || everything[i - 1].score > h.score || (everything[i - 1].score === h.score && indexed(everything[i - 1]) < indexed(h)))).toBe(true);
          for (const k of [1, 5, 20]) expect(await index.searchText(query, filter, k)).toEqual(everything.slice(0, k));
        }
      }
      await index.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("finds a workspace's best matches when another workspace's outrank them all", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-workspaces-'));
    const database = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database);
      const doc = (workspaceId: string, i: number, text: string) => ({
        id: `mem_${workspaceId}_${i}`, workspaceId, agentId: null, userId: 'u', runId: null, metadataTerms: [], vector: new Float32Array([1, 0, 0, 0]), text,
      });
      // The big workspace's texts say "dog" more densely, so all of its 500 rank above the small one's.
      await index.upsert(Array.from({ length: 500 }, (_, i) => doc('ws_big', i, 'dog dog')));
      await index.upsert(Array.from({ length: 12 }, (_, i) => doc('ws_small', i, `a dog and ${'cat '.repeat(i + 1)}`)));
      const small = await index.searchText('dog', { workspaceId: 'ws_small' }, 5);
      expect(small.map((h) => h.id)).toEqual([0, 1, 2, 3, 4].map((i) => `mem_ws_small_${i}`));
      expect(await index.searchText('dog', { workspaceId: 'ws_small', userId: 'u' }, 5)).toEqual(small);
      const big = await index.searchText('dog', { workspaceId: 'ws_big' }, 60);
      expect(big.map((h) => h.id)).toEqual(Array.from({ length: 60 }, (_, i) => `mem_ws_big_${i}`));
      await index.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('embedded workspace moving to the graph', () => {
  const DIMENSIONS = 48;
  /** Deterministic clustered unit vectors (a few topics, each row near one of them). */
  const vectorOf = (i: number) => {
    const v = new Float32Array(DIMENSIONS);
    for (let d = 0; d < DIMENSIONS; d++) v[d] = Math.sin((i % 7) * 13.1 + d * 0.7) + 0.35 * Math.sin(i * 2.3 + d * 1.9);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const exactTop = (docs: Map<string, { vector: Float32Array; userId: string }>, q: Float32Array, k: number, userId?: string) =>
    [...docs]
      .filter(([, d]) => userId === undefined || d.userId === userId)
      .map(([id, d]) => ({ id, score: d.vector.reduce((sum, x, i) => sum + x * q[i], 0) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1))
      .slice(0, k);

  it('keeps serving while it moves, honours writes made meanwhile, then finds the exact top hits and scores; a restart loads straight into the graph', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-vector-graph-'));
    const database = openDatabase(folder);
    try {
      const index = await EmbeddedVectorIndex.open(database, { graphMinRows: 300 });
      const ws = 'ws_graph';
      const docs = new Map<string, { vector: Float32Array; userId: string }>();
      const write = async (from: number, to: number) => {
        const batch = Array.from({ length: to - from }, (_, j) => {
          const i = from + j;
          return { id: `mem_${String(i).padStart(5, '0')}`, workspaceId: ws, agentId: null, userId: `user${i % 5}`, runId: null, metadataTerms: [], vector: vectorOf(i) };
        });
        await index.upsert(batch);
        for (const d of batch) docs.set(d.id, { vector: d.vector, userId: d.userId! });
      };
      await write(0, 300);
      expect(index.usesGraph(ws)).toBe(true);
      // While the graph fills: more rows, a replaced vector and a removal, and searches all along.
      await write(300, 700);
      await index.upsert([{ id: 'mem_00003', workspaceId: ws, agentId: null, userId: 'user3', runId: null, metadataTerms: [], vector: vectorOf(5) }]);
      docs.set('mem_00003', { vector: vectorOf(5), userId: 'user3' });
      await index.remove(ws, ['mem_00010']);
      docs.delete('mem_00010');
      expect((await index.search(vectorOf(10), { workspaceId: ws }, 5)).length).toBe(5);
      await index.indexed();

      let found = 0;
      for (let i = 0; i < 40; i++) {
        const q = vectorOf(i * 17 + 1);
        const exact = exactTop(docs, q, 10);
        const hits = await index.search(q, { workspaceId: ws }, 10);
        for (const h of hits) expect(h.score).toBeCloseTo(exactTop(new Map([[h.id, docs.get(h.id)!]]), q, 1)[0].score, 5);
        found += hits.filter((h) => exact.some((e) => e.id === h.id)).length;
        // One user's rows are few: scored exactly, the same hits as a full scan.
        const mine = await index.search(q, { workspaceId: ws, userId: 'user2' }, 10);
        expect(mine.map((h) => h.id)).toEqual(exactTop(docs, q, 10, 'user2').map((h) => h.id));
      }
      expect(found / 400).toBeGreaterThan(0.9);
      expect((await index.search(vectorOf(10), { workspaceId: ws }, 700)).map((h) => h.id)).not.toContain('mem_00010');

      const reopened = await EmbeddedVectorIndex.open(database, { graphMinRows: 300 });
      expect(reopened.usesGraph(ws)).toBe(true);
      const q = vectorOf(42);
      expect((await reopened.search(q, { workspaceId: ws, userId: 'user1' }, 10)).map((h) => h.id)).toEqual(exactTop(docs, q, 10, 'user1').map((h) => h.id));
      await index.close();
      await reopened.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('embedded saved graphs', () => {
  const vectorOf = (i: number) => {
    const v = Float32Array.from({ length: 24 }, (_, d) => Math.sin(i * 1.7 + d * 0.9) + (d === i % 24 ? 1 : 0));
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const doc = (ws: string, i: number) => ({ id: `mem_${i}`, workspaceId: ws, agentId: null, userId: `user${i % 3}`, runId: null, metadataTerms: [], vector: vectorOf(i) });
  const filesUnder = (folder: string): string[] =>
    existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(folder, e.name)) : [join(folder, e.name)])) : [];

  it('a restart loads the saved graph, then the rows and removals written after it by another connection', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-graph-saved-'));
    const database = openDatabase(folder);
    const other = openDatabase(folder);
    try {
      const first = await EmbeddedVectorIndex.open(database, { graphMinRows: 50 });
      await first.upsert(Array.from({ length: 120 }, (_, i) => doc('ws_saved', i)));
      await first.indexed();
      await first.close();
      const saved = filesUnder(join(folder, 'graphs'));
      expect(saved.map((f) => f.split('.').pop()).sort()).toEqual(['codes', 'graph', 'rows']);

      // Written while no searching index is open: a pipeline thread's writes.
      const writer = EmbeddedVectorIndex.openWriter(other);
      await writer.upsert([doc('ws_saved', 500)]);
      await writer.remove('ws_saved', ['mem_7']);
      // The removal erased the saved graph (it held mem_7's codes).
      expect(filesUnder(join(folder, 'graphs'))).toEqual([]);

      const second = await EmbeddedVectorIndex.open(database, { graphMinRows: 50 });
      expect(second.usesGraph('ws_saved')).toBe(true);
      const ids = async (i: number) => (await second.search(vectorOf(i), { workspaceId: 'ws_saved' }, 3)).map((h) => h.id);
      expect((await ids(500))[0]).toBe('mem_500');
      expect(await ids(7)).not.toContain('mem_7');
      expect((await ids(33))[0]).toBe('mem_33');
      await second.close();
      // Built again from the table at start-up and saved: loaded as is by the next start.
      const rebuilt = filesUnder(join(folder, 'graphs'));
      expect(rebuilt).toHaveLength(3);
      const third = await EmbeddedVectorIndex.open(database, { graphMinRows: 50 });
      // Loaded, not built again (which would save it under a new name).
      expect(filesUnder(join(folder, 'graphs'))).toEqual(rebuilt);
      await writer.upsert([doc('ws_saved', 501)]);
      expect((await third.search(vectorOf(501), { workspaceId: 'ws_saved' }, 1))[0].id).toBe('mem_501');
      expect((await third.search(vectorOf(44), { workspaceId: 'ws_saved', userId: 'user2' }, 1))[0].id).toBe('mem_44');
      await third.close();
    } finally {
      other.close();
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('does not save a graph holding a row another connection removed meanwhile', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-graph-race-'));
    const database = openDatabase(folder);
    try {
      const graph = new GraphPartition(24, () => new Map());
      for (let i = 0; i < 5; i++) graph.put({ id: `mem_${i}`, agentId: null, userId: null, runId: null, terms: [] }, vectorOf(i));
      const snapshots = new GraphSnapshots(database, join(folder, 'graphs'));
      database.prepare('INSERT INTO vector_tombstones (id, rev) VALUES (?, ?)').run('mem_3', 11);
      expect(snapshots.save('ws_race', graph, 10)).toBe(false);
      expect(filesUnder(join(folder, 'graphs'))).toEqual([]);
      expect(snapshots.save('ws_race', graph, 11)).toBe(true);
      expect(filesUnder(join(folder, 'graphs'))).toHaveLength(3);
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('never reads graph files the database does not name, and erases them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-graph-stale-'));
    const database = openDatabase(folder);
    try {
      const first = await EmbeddedVectorIndex.open(database, { graphMinRows: 50 });
      await first.upsert(Array.from({ length: 60 }, (_, i) => doc('ws_stale', i)));
      await first.indexed();
      await first.close();
      const [graphFile] = filesUnder(join(folder, 'graphs')).filter((f) => f.endsWith('.graph'));
      // A snapshot the database does not name (as after a crash while saving, or a restored backup).
      const stale = graphFile.replace(/\d+\.graph$/, '12345.graph');
      writeFileSync(stale, 'not a graph');
      database.prepare(`UPDATE sequences SET value = 999 WHERE name = 'graph_snapshot:ws_stale'`).run();
      const second = await EmbeddedVectorIndex.open(database, { graphMinRows: 50 });
      expect((await second.search(vectorOf(12), { workspaceId: 'ws_stale' }, 1))[0].id).toBe('mem_12');
      expect(existsSync(stale)).toBe(false);
      await second.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('embedded keyword index writes', () => {
  it("one write's texts reach FTS5 as one segment, as if written alone (a flush per row made loading slower with every row)", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-segments-'));
    const database = openDatabase(join(folder, 'index'));
    const baseline = openDatabase(join(folder, 'baseline'));
    try {
      const texts = Array.from({ length: 500 }, (_, i) => `note ${i} about lisbon and the beagle`);
      const index = await EmbeddedVectorIndex.open(database);
      const v = new Float32Array([1, 0, 0, 0]);
      await index.upsert(texts.map((text, i) => ({ id: `mem_${i}`, workspaceId: 'ws_fts', agentId: null, userId: 'u', runId: null, metadataTerms: [], vector: v, text })));
      const insert = baseline.prepare("INSERT INTO text_index (rowid, content, scope) VALUES (?, ?, ?)");
      baseline.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text, textScopeWord('ws_fts', 'u'))))();
      const dataRows = (db: Database.Database) => (db.prepare('SELECT count(*) AS n FROM text_index_data').get() as { n: number }).n;
      expect(dataRows(database)).toBe(dataRows(baseline));
      await index.close();
    } finally {
      database.close();
      baseline.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a large keyword index leaves out the terms most documents contain while a rarer one remains', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-fts-common-'));
    const database = openDatabase(folder);
    try {
      const open = (pruneTermsMinDocuments: number) => EmbeddedVectorIndex.open(database, { pruneTermsMinDocuments });
      const doc = (i: number, text: string) => ({
        id: `mem_${String(i).padStart(3, '0')}`, workspaceId: 'ws', agentId: null, userId: 'u', runId: null, metadataTerms: [], vector: new Float32Array([1, 0, 0, 0]), text,
      });
      const writer = await open(100);
      // "weather" is in every document, "kayak" in two, "glacier" in one.
      await writer.upsert([
        ...Array.from({ length: 200 }, (_, i) => doc(i, `talked about the weather ${'again '.repeat(i % 5)}`)),
        doc(200, 'weather was fine for the kayak trip'),
        doc(201, 'the kayak needs repair'),
        doc(202, 'a glacier hike despite the weather'),
      ]);
      await writer.close();
      const ids = (hits: { id: string }[]) => hits.map((h) => h.id).sort();
      const pruning = await open(100);
      expect(ids(await pruning.searchText('weather kayak', { workspaceId: 'ws' }, 10))).toEqual(['mem_200', 'mem_201']);
      // Every term common: the rarest alone.
      expect(ids(await pruning.searchText('weather talked', { workspaceId: 'ws' }, 500))).toHaveLength(200);
      expect(ids(await pruning.searchText('glacier', { workspaceId: 'ws' }, 10))).toEqual(['mem_202']);
      await pruning.close();
      // Below the threshold every term counts: the weather documents rank after the two with both words.
      const exact = await open(1_000);
      const hits = await exact.searchText('weather kayak', { workspaceId: 'ws' }, 10);
      expect(hits).toHaveLength(10);
      expect(ids(hits.slice(0, 2))).toEqual(['mem_200', 'mem_201']);
      await exact.close();
    } finally {
      database.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
