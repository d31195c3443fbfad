import { request, type IncomingMessage } from 'node:http';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../../../workers/bullmq/flows.js';
import { adminCreateKey, dropProductionData, productionEnv } from '../../support/backends.js';
import { startApiProcess, stopProcess, waitForOutput, WorkerProcesses, type OutputProcess } from '../../support/processes.js';
import { ApiClient } from '../../support/server.js';
import { waitFor } from '../../support/wait.js';

/**
 * SIGTERM, as an orchestrator sends it, to real API and `npm run worker` processes of a production deployment on
 * the shared servers (this file's own database, index and queue prefix).
 */
// One commit at a time, so a stop after the first commit always leaves writes behind (with the default four, a
// worker could commit the whole batch while draining its active jobs).
// The checks at the end read faster than the default rate limit allows.
const env = productionEnv('sigterm', { JOB_LOCK_MS: '3000', STAGE_CONCURRENCY: 'commit=1', RATE_LIMIT_PER_SECOND: '10000' });
const workers = new WorkerProcesses(() => env);
const apis: { child: OutputProcess; url: string }[] = [];
let key: string;

beforeAll(async () => {
  apis.push(await startApiProcess(env));
  key = adminCreateKey(env, 'sigterm', 'scale').key;
});

afterAll(async () => {
  await Promise.all([workers.stopAll(), ...apis.map((a) => stopProcess(a.child))]);
  await dropProductionData(env).catch(() => undefined);
});

const exitOf = (child: OutputProcess) =>
  new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });

/** A POST whose body is sent in two halves: the request is in flight until `finish` sends the rest. */
function halfSentPost(url: string, path: string, body: unknown) {
  const bytes = Buffer.from(JSON.stringify(body));
  const req = request(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Content-Length': bytes.length },
  });
  const response = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.on('response', (res: IncomingMessage) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
  req.write(bytes.subarray(0, bytes.length >> 1));
  return { response, finish: () => req.end(bytes.subarray(bytes.length >> 1)) };
}

const refusesConnections = (url: string) =>
  fetch(`${url}/v1/ping`).then(
    () => false,
    (error) => error?.cause?.code === 'ECONNREFUSED',
  );

describe('SIGTERM', () => {
  it('an API process stops taking connections, answers the request in flight, and exits 0', async () => {
    const doomed = await startApiProcess(env);
    const inFlight = halfSentPost(doomed.url, '/v1/memories', { content: 'Sent across a shutdown.', user_id: 'term' });
    // Time for the idle process to accept the connection and read the headers.
    await new Promise((r) => setTimeout(r, 500));
    const exited = exitOf(doomed.child);
    doomed.child.kill('SIGTERM');
    await waitForOutput(doomed.child, 'shutting down');
    expect(await refusesConnections(doomed.url)).toBe(true);
    expect(doomed.child.exitCode).toBeNull();

    inFlight.finish();
    const answered = await inFlight.response;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ content: 'Sent across a shutdown.', status: 'processing' });
    expect(await exited).toEqual({ code: 0, signal: null });

    // The answered write was really accepted: another API process serves it, and a worker processes it.
    await workers.start();
    const other = new ApiClient(apis[0].url, key);
    const ready = await waitFor(async () => {
      const got = (await other.get(`/v1/memories/${answered.body.id}`)).body;
      return got?.status === 'ready' ? got : undefined;
    }, 120_000, 250);
    expect(ready.content).toBe('Sent across a shutdown.');
    await workers.stopAll();
  }, 180_000);

  it("a worker process finishes or hands back its jobs and exits 0; another finishes the rest, each write exactly once", async () => {
    const client = new ApiClient(apis[0].url, key);
    const stopping = await workers.start();
    const users = Array.from({ length: 16 }, (_, i) => `w${i}`);
    const batch = await client.post('/v1/batch', { memories: users.map((user, i) => ({ content: `I work at Firm${i}q now.`, user_id: user })) });
    expect(batch.status).toBe(202);
    // Mid-flight: one write committed, the others somewhere in the stages.
    await waitFor(async () => ((await client.get(`/v1/batch/${batch.body.id}`)).body.imported >= 1 ? true : undefined), 120_000, 100);

    const stoppedAt = Date.now();
    await workers.stop(stopping, 'SIGTERM');
    expect({ code: stopping.exitCode, signal: stopping.signalCode }).toEqual({ code: 0, signal: null });
    expect(Date.now() - stoppedAt).toBeLessThan(20_000);
    expect(stopping.output()).toContain('worker shut down');
    const left = (await client.get(`/v1/batch/${batch.body.id}`)).body;
    expect(left.imported).toBeLessThan(users.length);
    // No job is still held by the stopped worker (it would wait for its lock to lapse): finished, or back in the queue.
    const redis = new Redis(env.REDIS_URL);
    try {
      for (const stage of STAGES) expect(await redis.llen(`${env.QUEUE_PREFIX}:${stage}:active`), stage).toBe(0);
    } finally {
      redis.disconnect();
    }

    await workers.start();
    const done = await waitFor(async () => {
      const body = (await client.get(`/v1/batch/${batch.body.id}`)).body;
      return body.status === 'completed' ? body : undefined;
    }, 180_000, 250);
    expect(done).toMatchObject({ received: users.length, imported: users.length, failed: 0 });
    for (const [i, user] of users.entries()) {
      const facts = (await client.get(`/v1/facts?user_id=${user}&include_invalidated=true`)).body.facts;
      expect(facts.map((f: any) => `${f.predicate}:${f.object}`)).toEqual([`works_at:Firm${i}q`]);
      const [memory] = (await client.get(`/v1/memories?user_id=${user}`)).body.memories;
      const events = (await client.get(`/v1/memories/${memory.id}/history`)).body.events.map((e: any) => e.event);
      expect(events).toEqual(['created', 'fact_extracted']);
    }
  }, 300_000);
});
