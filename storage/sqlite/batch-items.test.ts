import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { batch as batchOf } from '../contract/fixtures.js';
import { SqliteStore } from './store.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-batch-items-'));
const store = SqliteStore.open(dir);
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('recording imported batch items in groups (embedded runner)', () => {
  it('counts each item once, agrees with recordItem, and completes the batch with its last item', async () => {
    await store.batches.insert(batchOf('ws', 4, { id: 'bat_1' }));
    await store.batches.recordItem('ws', 'bat_1', 0, { ok: false, error: { index: 0, memory_id: 'mem_0', message: 'bad' } }, '2026-01-01T00:00:01.000Z');
    store.batches.recordImportedRows('ws', 'bat_1', [1, 2, 2], '2026-01-01T00:00:02.000Z');
    store.batches.recordImportedRows('ws', 'bat_1', [0, 1], '2026-01-01T00:00:03.000Z');
    expect(await store.batches.get('ws', 'bat_1')).toMatchObject({ imported: 2, failed: 1, status: 'processing', completedAt: null });
    expect(await store.batches.recordItem('ws', 'bat_1', 2, { ok: true }, '2026-01-01T00:00:04.000Z')).toMatchObject({ imported: 2 });
    store.batches.recordImportedRows('ws', 'bat_1', [3], '2026-01-01T00:00:05.000Z');
    expect(await store.batches.get('ws', 'bat_1')).toMatchObject({ imported: 3, failed: 1, status: 'completed', completedAt: '2026-01-01T00:00:05.000Z' });
  });

  it('records nothing for a batch of another workspace or a removed one', async () => {
    await store.batches.insert(batchOf('ws', 2, { id: 'bat_2' }));
    store.batches.recordImportedRows('other', 'bat_2', [0], '2026-01-01T00:00:01.000Z');
    expect(await store.batches.get('ws', 'bat_2')).toMatchObject({ imported: 0 });
    await store.batches.remove('ws', 'bat_2');
    store.batches.recordImportedRows('ws', 'bat_2', [1], '2026-01-01T00:00:01.000Z');
    expect(store.db.prepare(`SELECT COUNT(*) AS n FROM batch_items WHERE batch_id = 'bat_2'`).get()).toEqual({ n: 0 });
  });
});
