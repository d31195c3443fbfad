import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { at, batch, memory, newWorkspaceId } from '../contract/fixtures.js';
import { jobIdOf } from './jobs.js';
import { SqliteStore } from './store.js';

let dir: string;
let store: SqliteStore;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'engram-jobs-'));
  store = SqliteStore.open(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the jobs table and accepting writes on SQLite', () => {
  it('stores the records and the job rows an acceptance adds in one transaction', async () => {
    const ws = newWorkspaceId();
    const m = memory(ws, { userId: 'jobs' });
    const job = { workspaceId: ws, memoryId: m.id, version: 1 };
    await store.acceptWrites({ batch: batch(ws, 1, { memoryIds: [m.id] }), memories: [m], events: [] }, () =>
      store.jobs.insert([{ id: jobIdOf(job), payload: JSON.stringify(job), scopeHash: 7, lane: 0 }], Date.now()),
    );
    expect(await store.memories.get(ws, m.id)).toEqual(m);
    expect(store.jobs.orphans().some((o) => o.id === m.id)).toBe(false);
    const claimed = store.jobs.claim(0, Date.now(), Date.now() + 60_000);
    expect(claimed).toMatchObject({ id: jobIdOf(job), payload: JSON.stringify(job), attempts: 1 });
    expect(store.jobs.counts()).toMatchObject({ running: 1 });
    store.jobs.remove([jobIdOf(job)]);
    expect(store.jobs.counts().running ?? 0).toBe(0);
  });

  it('leaves nothing of an acceptance whose job rows fail', async () => {
    const ws = newWorkspaceId();
    const m = memory(ws, { createdAt: at(1) });
    const b = batch(ws, 1, { memoryIds: [m.id] });
    await expect(
      store.acceptWrites({ batch: b, memories: [m], events: [] }, () => {
        throw new Error('no job rows');
      }),
    ).rejects.toThrow('no job rows');
    expect(await store.memories.get(ws, m.id)).toBeNull();
    expect(await store.batches.get(ws, b.id)).toBeNull();
  });

  it("claims a scope's earlier write first when the two reached the queue in the other order", async () => {
    // Two requests took sequence numbers 1 and 2 and were accepted in the other order: by arrival alone, the lane
    // would hand out write 2, which can only wait for write 1.
    const ws = newWorkspaceId();
    const [first, second] = [1, 2].map((seq) => memory(ws, { userId: 'order', seq }));
    const other = memory(ws, { userId: 'someone else', seq: 3 });
    const lane = 5;
    for (const m of [second, other, first]) {
      const job = { workspaceId: ws, memoryId: m.id, version: 1 };
      await store.acceptWrites({ memories: [m], events: [] }, () =>
        store.jobs.insert([{ id: jobIdOf(job), payload: JSON.stringify(job), scopeHash: 11, lane }], Date.now()),
      );
    }
    const now = Date.now();
    const claims = [0, 1, 2].map(() => store.jobs.claim(lane, now, now + 60_000)?.id);
    expect(claims).toEqual([first, second, other].map((m) => jobIdOf({ memoryId: m.id, version: 1 })));
  });

  it('finds a processing memory without a job row as an orphan', async () => {
    const ws = newWorkspaceId();
    const m = memory(ws);
    await store.acceptWrites({ memories: [m], events: [] });
    expect(store.jobs.orphans()).toContainEqual({ id: m.id, workspace_id: ws, version: 1 });
  });
});
