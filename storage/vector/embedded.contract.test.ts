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
