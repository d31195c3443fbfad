import { describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeVectorIndexContract } from '../contract/vector-contract.js';
import { openDatabase } from '../sqlite/store.js';
import { EmbeddedVectorIndex } from './embedded.js';

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
