import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../sqlite/store.js';
import { EmbeddedVectorIndex } from './embedded.js';
import { searchKeywordIndex } from './keyword-search.js';
import { ReadThread } from '../sqlite/read-thread.js';
import type { VectorDoc, VectorFilter } from './types.js';

const WORDS = ['dog', 'walk', 'park', 'coffee', 'morning', 'sister', 'lives', 'rome', 'guitar', 'lessons', 'tuesday', 'allergic', 'cats'];
const ws = 'ws_keywords';

/** Deterministic texts with many exact duplicates, so BM25 ties are common. */
function docs(): VectorDoc[] {
  return Array.from({ length: 240 }, (_, i) => {
    const words = Array.from({ length: 3 + (i % 4) }, (_, j) => WORDS[(i * 7 + j * 3) % WORDS.length]);
    return {
      id: `mem_${String((i * 7919) % 1000).padStart(4, '0')}_${i}`,
      workspaceId: i % 5 === 0 ? 'ws_other' : ws,
      agentId: i % 3 === 0 ? 'agent_a' : null,
      userId: `user${i % 4}`,
      runId: null,
      metadataTerms: i % 2 ? ['topic="pets"'] : [],
      vector: new Float32Array([1, 0, 0, 0]),
      text: `${words.join(' ')}.`,
    };
  });
}

describe('keyword search in its own thread', () => {
  let dir: string;
  let db: Database.Database;
  let index: EmbeddedVectorIndex;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-keyword-thread-'));
    db = openDatabase(dir);
    index = await EmbeddedVectorIndex.open(db);
    await index.upsert(docs());
  });

  afterAll(async () => {
    await index.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const filters: VectorFilter[] = [
    { workspaceId: ws },
    { workspaceId: ws, userId: 'user1' },
    { workspaceId: ws, agentId: null },
    { workspaceId: ws, agentId: 'agent_a', metadataTerms: ['topic="pets"'] },
  ];

  it('returns the first k of the full BM25 ranking (ties by id), as a search on the index connection would', async () => {
    for (const query of ['dog walk', 'coffee in the morning', 'Where does her sister live?', 'cats']) {
      for (const filter of filters) {
        const everything = searchKeywordIndex(db, query, filter, 10_000);
        expect(everything.length).toBeGreaterThan(5);
        for (const k of [1, 5, 20]) {
          const top = await index.searchText(query, filter, k);
          expect(top).toEqual(everything.slice(0, k));
        }
      }
    }
  });

  it('sees a write as soon as it has returned', async () => {
    const doc = { ...docs()[1], id: 'mem_fresh', text: 'a zeppelin ride over the lake' };
    await index.upsert([doc]);
    expect(await index.searchText('zeppelin', { workspaceId: ws }, 5)).toEqual([{ id: 'mem_fresh', score: expect.any(Number) }]);
    await index.remove(ws, ['mem_fresh']);
    expect(await index.searchText('zeppelin', { workspaceId: ws }, 5)).toEqual([]);
  });

  it('runs in a thread of its own, and on the index connection once that thread has stopped', async () => {
    const reader = (index as unknown as { keywordReader: ReadThread }).keywordReader;
    expect(reader.running).toBe(true);
    const before = await index.searchText('guitar lessons', { workspaceId: ws }, 3);
    expect(before).toEqual(searchKeywordIndex(db, 'guitar lessons', { workspaceId: ws }, 3));
    await reader.close();
    expect(reader.running).toBe(false);
    expect(await index.searchText('guitar lessons', { workspaceId: ws }, 3)).toEqual(before);
  });
});
