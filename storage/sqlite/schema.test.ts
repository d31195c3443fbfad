import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, SCHEMA_VERSION } from './schema.js';
import { openDatabase } from './store.js';
import { EmbeddedVectorIndex } from '../vector/embedded.js';

describe('schema migrations', () => {
  it("rebuild the keyword index with each document's user scope from the memories of a database written before", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'engram-migrate-text-'));
    try {
      // A data folder as the version before the scope column left it: memories, their keyword rows, the old index.
      const old = new Database(join(folder, 'engram.db'));
      migrate(old, SCHEMA_VERSION - 1);
      const memory = old.prepare(
        `INSERT INTO memories (id, workspace_id, user_id, agent_id, run_id, content, metadata, status, error, version, seq, reference_time, created_at, updated_at, deleted_at)
         VALUES (?, 'ws', ?, NULL, NULL, ?, '{}', 'ready', NULL, 1, ?, NULL, '2026-01-01', '2026-01-01', NULL)`,
      );
      const doc = old.prepare(`INSERT INTO text_docs (id, workspace_id, agent_id, user_id, run_id, meta_terms) VALUES (?, 'ws', NULL, ?, NULL, '[]')`);
      const text = old.prepare('INSERT INTO text_index (rowid, content) VALUES (?, ?)');
      const rows: [string, string | null, string][] = [
        ['mem_a', 'ann', 'Ann keeps bees in the garden'],
        ['mem_b', 'bob', 'Bob keeps bees on the roof'],
        ['mem_c', null, 'nobody keeps bees here'],
      ];
      rows.forEach(([id, user, content], i) => {
        memory.run(id, user, content, i + 1);
        text.run(doc.run(id, user).lastInsertRowid, content);
      });
      // A keyword row whose memory is gone is dropped, not carried over.
      doc.run('mem_gone', 'ann');
      old.close();

      const db = openDatabase(folder);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      const index = await EmbeddedVectorIndex.open(db);
      const ids = async (userId?: string) => (await index.searchText('bees', { workspaceId: 'ws', ...(userId ? { userId } : {}) }, 10)).map((h) => h.id).sort();
      expect(await ids()).toEqual(['mem_a', 'mem_b', 'mem_c']);
      expect(await ids('ann')).toEqual(['mem_a']);
      expect(await ids('bob')).toEqual(['mem_b']);
      expect(await ids('carol')).toEqual([]);
      expect(db.prepare("SELECT count(*) AS n FROM text_docs WHERE id = 'mem_gone'").get()).toEqual({ n: 0 });
      await index.close();
      db.close();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
