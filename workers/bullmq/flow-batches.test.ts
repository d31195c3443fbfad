import { FlowProducer, Queue, type FlowJob } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../test/support/redis.js';
import { FlowBatches } from './flow-batches.js';

const prefix = `fb${process.pid}`;
const connection = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
const producer = new FlowProducer({ connection, prefix });
const queue = new Queue('fb-parent', { connection, prefix });
const flow = (id: string): FlowJob => ({ name: 'p', queueName: 'fb-parent', opts: { jobId: id }, children: [{ name: 'c', queueName: 'fb-child', opts: { jobId: `${id}-c` } }] });

afterAll(async () => {
  await queue.obliterate({ force: true }).catch(() => undefined);
  await new Queue('fb-child', { connection, prefix }).obliterate({ force: true }).catch(() => undefined);
  await producer.close();
  await queue.close();
  connection.disconnect();
});

describe('FlowBatches', () => {
  it('carries the flows of concurrent callers in few addBulk calls, in arrival order, each caller resolved once its flows are in Redis', async () => {
    const calls: string[][] = [];
    const batches = new FlowBatches(async (flows) => {
      calls.push(flows.map((f) => f.opts!.jobId!));
      return producer.addBulk(flows);
    });
    const ids = Array.from({ length: 30 }, (_, i) => `ok${i}`);
    await Promise.all(
      ids.map(async (id) => {
        await batches.add([flow(id)]);
        expect(await queue.getJob(id)).toBeDefined();
      }),
    );
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.flat()).toEqual(ids);
  });

  it('rejects every caller whose flows rode on a failed call, and carries on with later ones', async () => {
    let fail = true;
    const batches = new FlowBatches(async (flows) => {
      if (fail) {
        fail = false;
        throw new Error('redis down');
      }
      return producer.addBulk(flows);
    });
    const first = await Promise.allSettled([batches.add([flow('f1')]), batches.add([flow('f2')])]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await batches.add([flow('f3')]);
    expect(await queue.getJob('f3')).toBeDefined();
    expect(await queue.getJob('f1')).toBeUndefined();
  });

  it('splits a caller with more flows than one call carries', async () => {
    const calls: number[] = [];
    const batches = new FlowBatches(async (flows) => {
      calls.push(flows.length);
      return producer.addBulk(flows);
    });
    await batches.add(Array.from({ length: 250 }, (_, i) => flow(`big${i}`)));
    expect(calls).toEqual([100, 100, 50]);
    expect(await queue.getJob('big249')).toBeDefined();
  });
});
