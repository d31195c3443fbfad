import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writesOf } from '../../workers/bullmq/chunks.js';
import { STAGES } from '../../workers/bullmq/flows.js';
import { WorkerProcesses } from '../support/processes.js';
import { testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Crash recovery with the default job lock: two `npm run worker` processes share the
 * queues; one is SIGKILLed while it holds jobs, and the survivor finishes them within 10 s.
 */
const prefix = `crash${process.pid}`;
let api: TestServer;
const workers = new WorkerProcesses(() => api.env);
const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const queues = STAGES.map((stage) => new Queue(stage, { connection: redis, prefix }));

beforeAll(async () => {
  api = await startTestServer({ REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }, { runWorkers: false });
});

afterAll(async () => {
  await workers.stopAll();
  await Promise.all(queues.map((q) => q.close()));
  redis.disconnect();
  await api?.close();
});

const workerName = (pid: number) => `${hostname()}-${pid}`;

/** Jobs the given worker process holds right now. */
async function jobsHeldBy(pid: number): Promise<{ queue: Queue; id: string; memoryIds: string[] }[]> {
  const held: { queue: Queue; id: string; memoryIds: string[] }[] = [];
  for (const queue of queues) {
    for (const job of await queue.getActive()) {
      if (job?.processedBy === workerName(pid)) held.push({ queue, id: job.id!, memoryIds: writesOf(job.data).map((w) => w.memoryId) });
    }
  }
  return held;
}

describe('a SIGKILLed BullMQ worker', () => {
  it('has its jobs picked up by another worker within 10 s, each write processed exactly once', async () => {
    const victim = await workers.start();
    await workers.start();
    const users = 20;
    const memories = Array.from({ length: 200 }, (_, i) => ({
      content: `I work at Shipyard${Math.floor(i / users)}x${i % users} now.`,
      user_id: `killed${i % users}`,
    }));
    const batch = (await api.api().post('/v1/batch', { memories })).body;

    let held: Awaited<ReturnType<typeof jobsHeldBy>> = [];
    const deadline = Date.now() + 30_000;
    while (held.length === 0) {
      if (Date.now() > deadline) throw new Error('the victim never held a job');
      held = await jobsHeldBy(victim.pid!);
    }
    await workers.stop(victim, 'SIGKILL');
    const killedAt = Date.now();

    // Within 10 s of its death every job it held is released to another worker: back to waiting,
    // taken by the survivor, or already finished.
    let stuck = held;
    while (stuck.length > 0) {
      const still = [];
      for (const h of stuck) {
        const job = await h.queue.getJob(h.id);
        if (job && job.processedBy === workerName(victim.pid!) && (await job.getState()) === 'active') still.push(h);
      }
      stuck = still;
      expect(Date.now() - killedAt, `jobs ${stuck.map((h) => h.id).join(', ')} still locked by the dead worker`).toBeLessThan(10_000);
      if (stuck.length) await new Promise((r) => setTimeout(r, 100));
    }

    // …and the writes they belonged to then finish (10 s plus their processing time on a busy machine).
    const pending = new Set(held.flatMap((h) => h.memoryIds));
    while (pending.size > 0) {
      for (const id of [...pending]) {
        if ((await api.api().get(`/v1/memories/${id}`)).body.status === 'ready') pending.delete(id);
      }
      expect(Date.now() - killedAt, `writes ${[...pending].join(', ')} still processing`).toBeLessThan(30_000);
      await new Promise((r) => setTimeout(r, 50));
    }

    let done: any;
    for (;;) {
      done = (await api.api().get(`/v1/batch/${batch.id}`)).body;
      if (done.status === 'completed') break;
      expect(Date.now() - killedAt).toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(done).toMatchObject({ received: 200, imported: 200, failed: 0 });
    for (let u = 0; u < users; u++) {
      const all = (await api.api().get(`/v1/facts?user_id=killed${u}&predicate=works_at&include_invalidated=true&limit=50`)).body;
      expect(all.total).toBe(10);
      const live = (await api.api().get(`/v1/facts?user_id=killed${u}&predicate=works_at`)).body;
      expect(live.facts.map((f: any) => f.object)).toEqual([`Shipyard9x${u}`]);
    }
  }, 90_000);
});
