import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ApiClient, SHARED_CACHE_DIR, startTestServer, type TestServer } from '../support/server.js';
import { startApiProcess, stopProcess } from '../support/processes.js';

/** The embedded default: API and the in-process runner over the embedded store. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function waitForBatch(t: TestServer, key: string, id: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = (await t.api(key).get(`/v1/batch/${id}`)).body;
    if (body.status === 'completed') return body;
    if (Date.now() > deadline) throw new Error(`batch still ${body.status}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Nice value per thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat, counted after the name's `)`). */
function niceByThread(): Map<number, number> {
  const nice = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      nice.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nice;
}

describe('in-process runner', () => {
  it.runIf(process.platform === 'linux')('pipeline threads run at PIPELINE_NICE, requests at the API thread\'s priority', async () => {
    const apiThread = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0]);
    const before = niceByThread();
    const t = await startTestServer({ PIPELINE_NICE: '7' });
    try {
      await t.api().post('/v1/memories', { content: 'I moved to Lisbon in May.', user_id: 'nice' });
      await t.settle();
      const after = niceByThread();
      const niced = [...after].filter(([tid, nice]) => !before.has(tid) && nice === 7);
      expect(niced.length).toBeGreaterThan(0);
      expect(after.get(apiThread)).toBe(before.get(apiThread));
      expect(before.get(apiThread)).not.toBe(7);
    } finally {
      await t.close();
    }
  });

  it('a restart in the middle of a batch finishes it, without duplicates', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-restart-'));
    dirs.push(dataDir);
    const first = await startTestServer({}, { dataDir });
    const key = first.key;
    const memories = Array.from({ length: 200 }, (_, i) => ({ content: `I work at Firm${i} these days.`, user_id: `rs${i % 4}` }));
    const batch = (await first.api().post('/v1/batch', { memories })).body;
    // Stop while the batch is being processed: queued jobs stay in the data folder.
    for (;;) {
      const body = (await first.api().get(`/v1/batch/${batch.id}`)).body;
      if (body.imported > 0) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    await first.close();

    const second = await startTestServer({}, { dataDir });
    try {
      const done = await waitForBatch(second, key, batch.id);
      expect(done).toMatchObject({ received: 200, imported: 200, failed: 0 });
      for (let u = 0; u < 4; u++) {
        const all = (await second.api(key).get(`/v1/facts?user_id=rs${u}&include_invalidated=true&limit=200`)).body;
        expect(all.total).toBe(50);
        const live = (await second.api(key).get(`/v1/facts?user_id=rs${u}`)).body;
        expect(live.facts.map((f: any) => f.object)).toEqual([`Firm${196 + u}`]);
      }
    } finally {
      await second.close();
    }
  }, 120_000);

  // These two swap a stage on the API thread's pipeline, so they run the stages there (PIPELINE_THREADS=0).
  it('a failing stage is retried and the write ends ready exactly once', async () => {
    const t = await startTestServer({ JOB_ATTEMPTS: '3', PIPELINE_THREADS: '0' });
    try {
      const extractor = t.services.pipeline.factExtractor;
      const original = extractor.extractFacts.bind(extractor);
      let failures = 1;
      extractor.extractFacts = async (input) => {
        if (failures-- > 0) throw new Error('transient extractor failure');
        return original(input);
      };
      const m = (await t.api().post('/v1/memories', { content: 'I live in Tallinn.', user_id: 'retry' })).body;
      await t.settle();
      const got = (await t.api().get(`/v1/memories/${m.id}`)).body;
      expect(got.status).toBe('ready');
      expect((await t.api().get('/v1/facts?user_id=retry&include_invalidated=true')).body.total).toBe(1);
    } finally {
      await t.close();
    }
  });

  it('a write whose stage keeps failing ends in error; in a batch it is one failed item', async () => {
    const t = await startTestServer({ JOB_ATTEMPTS: '2', PIPELINE_THREADS: '0' });
    try {
      const extractor = t.services.pipeline.factExtractor;
      const original = extractor.extractFacts.bind(extractor);
      extractor.extractFacts = async (input) => {
        if (input.content.includes('POISON')) throw new Error('cannot extract this');
        return original(input);
      };
      const batch = (await t.api().post('/v1/batch', { memories: [{ content: 'fine one' }, { content: 'POISON pill' }, { content: 'fine two' }] })).body;
      const done = await waitForBatch(t, t.key, batch.id);
      expect(done).toMatchObject({ status: 'completed', received: 3, imported: 2, failed: 1 });
      expect(done.errors).toEqual([{ index: 1, memory_id: expect.stringMatching(/^mem_/), message: 'cannot extract this' }]);
      expect((await t.api().get(`/v1/memories/${done.errors[0].memory_id}`)).body.status).toBe('error');
    } finally {
      await t.close();
    }
  });

  it('concurrent writes of a single-valued fact leave exactly one live fact', async () => {
    const t = await startTestServer();
    try {
      for (let round = 0; round < 5; round++) {
        const user = `race${round}`;
        await Promise.all(['Lyon', 'Nantes', 'Lille'].map((city) => t.api().post('/v1/memories', { content: `I live in ${city}.`, user_id: user })));
        await t.settle();
        expect((await t.api().get(`/v1/facts?user_id=${user}&predicate=lives_in`)).body.total).toBe(1);
      }
    } finally {
      await t.close();
    }
  });
});

describe('when the queue cannot take a write', () => {
  it('answers 503 queue_unavailable and withdraws the write: no memory, no history, quota refunded', async () => {
    const t = await startTestServer();
    try {
      const ws = (await t.services.store.workspaces.getBySlug('test'))!;
      const queue = t.services.queue;
      const accept = queue.accept.bind(queue);
      // A queue that fails after part of the write is stored (as BullMQ can: the store and Redis share no transaction).
      queue.accept = async ({ memories, events }) => {
        await t.services.store.memories.insertMany(memories);
        await t.services.store.history.append(events);
        throw new Error('queue down');
      };
      const before = await t.services.limits.used('write', ws.id, ws.plan);
      const add = await t.api().post('/v1/memories', { content: 'never stored', user_id: 'q' });
      expect(add.status).toBe(503);
      expect(add.body).toEqual({ code: 'queue_unavailable', message: expect.any(String) });
      const batch = await t.api().post('/v1/batch', { memories: [{ content: 'a' }, { content: 'b' }] });
      expect(batch.status).toBe(503);
      expect(await t.services.store.memories.count({ workspaceId: ws.id, includeForgotten: true })).toBe(0);
      expect(await t.services.limits.used('write', ws.id, ws.plan)).toBe(before);
      queue.accept = accept;
      expect((await t.api().post('/v1/memories', { content: 'stored now', user_id: 'q' })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('acknowledgements', () => {
  it('batches sent together are each readable as soon as they are acknowledged', async () => {
    const t = await startTestServer();
    try {
      await Promise.all(
        Array.from({ length: 6 }, async (_, b) => {
          const memories = Array.from({ length: 500 }, (_, i) => ({ content: `Note ${i} of import ${b}: the review moved to room ${i}.`, user_id: `ack${b}` }));
          const ack = await t.api().post('/v1/batch', { memories });
          expect(ack.status).toBe(202);
          const [batch, listed] = await Promise.all([t.api().get(`/v1/batch/${ack.body.id}`), t.api().get(`/v1/memories?user_id=ack${b}&limit=1`)]);
          expect(batch.body).toMatchObject({ id: ack.body.id, received: 500 });
          expect(listed.body.total).toBe(500);
        }),
      );
    } finally {
      await t.close();
    }
  }, 120_000);

  it('batches acknowledged just before the process is killed are processed exactly once, in order, after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-ack-kill-'));
    dirs.push(dataDir);
    const env = { DATA_DIR: dataDir, CACHE_DIR: SHARED_CACHE_DIR, PIPELINE_THREADS: '1', EXTRACTOR: 'rules', REDIS_URL: '', MONGODB_URL: '', ELASTICSEARCH_URL: '' };
    const first = await startApiProcess(env);
    // The first start creates a workspace and prints its key once.
    const key = /\n {2}(eng_\S+)\n/.exec(first.child.output())![1];
    const users = ['k0', 'k1', 'k2'];
    let batchIds: string[];
    try {
      const client = new ApiClient(first.url, key);
      batchIds = await Promise.all(
        users.map(async (user) => {
          const memories = Array.from({ length: 150 }, (_, i) => ({ content: `I work at Firm${i} these days.`, user_id: user }));
          const ack = await client.post('/v1/batch', { memories });
          expect(ack.status).toBe(202);
          return ack.body.id as string;
        }),
      );
    } finally {
      await stopProcess(first.child, 'SIGKILL');
    }
    const db = new Database(join(dataDir, 'engram.db'), { readonly: true });
    const waiting = (db.prepare('SELECT count(*) AS n FROM inbox').get() as { n: number }).n;
    db.close();
    // The kill came while acknowledged writes were still on their way into their tables.
    expect(waiting).toBeGreaterThan(0);

    const second = await startApiProcess(env);
    try {
      const client = new ApiClient(second.url, key);
      for (const id of batchIds) {
        const deadline = Date.now() + 90_000;
        let batch = (await client.get(`/v1/batch/${id}`)).body;
        while (batch.status !== 'completed' && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 100));
          batch = (await client.get(`/v1/batch/${id}`)).body;
        }
        expect(batch).toMatchObject({ status: 'completed', received: 150, imported: 150, failed: 0 });
      }
      for (const user of users) {
        expect((await client.get(`/v1/memories?user_id=${user}&limit=1`)).body.total).toBe(150);
        expect((await client.get(`/v1/facts?user_id=${user}&include_invalidated=true&limit=1`)).body.total).toBe(150);
        expect((await client.get(`/v1/facts?user_id=${user}`)).body.facts.map((f: any) => f.object)).toEqual(['Firm149']);
      }
    } finally {
      await stopProcess(second.child, 'SIGKILL');
    }
  }, 240_000);
});
