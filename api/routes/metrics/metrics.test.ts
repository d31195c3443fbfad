import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/support/redis.js';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

/** One sample's value from Prometheus text exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function scrape(t: TestServer, headers: Record<string, string> = {}, url = `${t.url}/metrics`) {
  const res = await fetch(url, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

describe.each([
  ['embedded', {}],
  ['bullmq', { REDIS_URL: testRedisUrl() }],
])('/metrics (%s)', (mode, env) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(env);
  });
  afterAll(() => t?.close());

  it('counts requests by route template, times stages and acks, and reports queue and index sizes without ids or content', async () => {
    // Stage metrics are per process (the tests share one): compare before and after. They are served by the
    // process that runs the stages: this one, or in production mode the `npm run worker` process.
    const pipelineMetrics = () => scrape(t, {}, t.pipelineMetricsUrl()!).then((r) => r.text);
    const before = await pipelineMetrics();
    const stageRuns = (text: string, stage: string) => sample(text, 'engram_pipeline_stage_duration_seconds_count', { stage, outcome: 'ok' }) ?? 0;
    const added = await t.api().post('/v1/memories', { content: 'I live in Tromsø and work at Equinor.', user_id: 'metrics-user-7' });
    expect(added.status).toBe(200);
    await t.settle();
    const got = await t.api().get(`/v1/memories/${added.body.id}`);
    expect(got.status).toBe(200);
    await t.api().get('/v1/memories/mem_unknown0');
    await t.api(null).get('/v1/ping');

    const { status, type, text } = await scrape(t);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    expect(sample(text, 'engram_http_requests_total', { method: 'POST', route: '/v1/memories', status: '200' })).toBe(1);
    expect(sample(text, 'engram_http_requests_total', { method: 'GET', route: '/v1/memories/:id', status: '200' })).toBe(1);
    expect(sample(text, 'engram_http_requests_total', { method: 'GET', route: '/v1/ping', status: '401' })).toBe(1);
    expect(sample(text, 'engram_http_request_duration_seconds_count', { route: '/v1/memories/:id', status: '200' })).toBe(1);
    expect(sample(text, 'engram_write_ack_seconds_count', { operation: 'POST /v1/memories' })).toBe(1);
    const after = await pipelineMetrics();
    for (const stage of ['embed', 'entities', 'facts', 'contradiction-1', 'contradiction-2', 'commit']) {
      expect(stageRuns(after, stage) - stageRuns(before, stage), stage).toBe(1);
    }
    expect(after).toContain('engram_pipeline_stage_failures_total');
    expect(sample(text, 'engram_vector_index_size', { backend: t.services.vectors.kind })).toBe(1);
    expect(sample(text, 'engram_queue_backlog')).toBe(0);
    if (mode === 'bullmq') expect(sample(text, 'engram_queue_jobs', { stage: 'commit', state: 'waiting' })).toBe(0);
    expect(text).toContain('engram_process_resident_memory_bytes');
    // Nothing a user sent shows up in a label or anywhere else.
    for (const secret of [added.body.id, 'mem_unknown0', 'metrics-user-7', 'Tromsø', 'Equinor', t.key]) {
      expect(text).not.toContain(secret);
      expect(after).not.toContain(secret);
    }
  }, 60_000);
});

describe('/metrics settings', () => {
  it('METRICS=off removes the endpoint', async () => {
    const t = await startTestServer({ METRICS: 'off' });
    try {
      expect((await scrape(t)).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('METRICS=operator asks for the operator credentials, never an API key', async () => {
    const t = await startTestServer({ METRICS: 'operator', ADMIN_CREDENTIALS: 'ops:s3cret' });
    try {
      expect((await scrape(t)).status).toBe(401);
      expect((await scrape(t, { Authorization: `Bearer ${t.key}` })).status).toBe(401);
      const operator = { Authorization: `Basic ${Buffer.from('ops:s3cret').toString('base64')}` };
      const ok = await scrape(t, operator);
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('engram_http_requests_total');
      // The same for the pipeline's metrics (in production mode the worker process serves them).
      expect((await scrape(t, { Authorization: `Bearer ${t.key}` }, t.pipelineMetricsUrl()!)).status).toBe(401);
      expect((await scrape(t, operator, t.pipelineMetricsUrl()!)).text).toContain('engram_pipeline_stage_duration_seconds');
    } finally {
      await t.close();
    }
  });

  it('METRICS=operator without ADMIN_CREDENTIALS stops start-up with a message', async () => {
    await expect(startTestServer({ METRICS: 'operator' })).rejects.toThrow(/METRICS=operator needs ADMIN_CREDENTIALS/);
  });
});
