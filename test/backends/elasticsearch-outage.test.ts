import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState, startService, stopService } from '../../backends/services.js';
import { TwoByTwoDeployment } from '../support/deployment.js';
import { waitFor } from '../support/wait.js';

/**
 * Elasticsearch stopped under a running production deployment (two APIs, two workers): the real node is stopped
 * with SIGTERM and restarted on the same port and data folder. It stops the node every other test file of the run
 * shares, so vitest.backends.config.ts runs this file alone, after all the others.
 */
const deployment = new TwoByTwoDeployment('outage', { JOB_LOCK_MS: '3000', JOB_ATTEMPTS: '12' });
const { env } = deployment;
const workspace = deployment.workspace.bind(deployment);
const settled = deployment.settled.bind(deployment);

beforeAll(() => deployment.start());
afterAll(() => deployment.close());

describe('production mode: an Elasticsearch outage', () => {
  it('with Elasticsearch stopped, search is 503 search_unavailable and everything else works; it recovers', async () => {
    const { a, b } = workspace('e2e-outage');
    const first = (await a.post('/v1/memories', { content: 'I live in Porto.', user_id: 'out' })).body.id;
    const forgotten = (await a.post('/v1/memories', { content: 'My cat is called Miso.', user_id: 'out' })).body.id;
    await settled(b);
    const entry = readState().elasticsearch!;
    await stopService('elasticsearch');
    try {
        for (const api of [a, b]) {
          const search = await api.post('/v1/memories/search', { query: 'Porto', user_id: 'out' });
          expect(search.status).toBe(503);
          expect(search.body).toEqual({ code: 'search_unavailable', message: expect.any(String) });
        }
        const written = await b.post('/v1/memories', { content: 'I work at Sonae.', user_id: 'out' });
        expect(written.status).toBe(200);
        expect((await a.get(`/v1/memories/${first}`)).body.status).toBe('ready');
        expect((await a.get('/v1/facts?user_id=out&predicate=lives_in')).body.facts[0].object).toBe('Porto');
        expect((await b.get('/v1/memories?user_id=out')).status).toBe(200);
        expect((await b.get('/v1/ping')).status).toBe(200);
        // Forgetting needs the index to drop the vector: refused with nothing changed, so the memory and its fact stay.
        const refused = await a.delete(`/v1/memories/${forgotten}`);
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe('service_unavailable');
        expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
        expect((await b.get(`/v1/memories/${forgotten}`)).body).toMatchObject({ status: 'ready', content: 'My cat is called Miso.' });
        expect((await b.get('/v1/facts?user_id=out&predicate=has_pet')).body.total).toBe(1);

        await startService('elasticsearch', { port: entry.port, dir: entry.dir });
        // The write accepted during the outage completes once its embedding can be indexed.
        const ready = await waitFor(async () => {
          const got = (await a.get(`/v1/memories/${written.body.id}`)).body;
          return got.status === 'ready' ? got : undefined;
        }, 180_000, 500);
        expect(ready.status).toBe('ready');
        const search = await waitFor(async () => {
          const res = await b.post('/v1/memories/search', { query: 'employer Sonae', user_id: 'out' });
          return res.status === 200 ? res.body : undefined;
        }, 60_000, 250);
        expect(search.results.map((r: any) => r.id)).toEqual(expect.arrayContaining([first, written.body.id]));
        // The retry finishes the forget: gone for readers, its fact invalidated, its vector out of the index.
        expect((await b.delete(`/v1/memories/${forgotten}`)).status).toBe(200);
        expect((await a.get(`/v1/memories/${forgotten}`)).status).toBe(404);
        expect((await a.get('/v1/facts?user_id=out&predicate=has_pet')).body.total).toBe(0);
        const afterForget = await b.post('/v1/memories/search', { query: 'cat Miso', user_id: 'out' });
        expect(afterForget.status).toBe(200);
        expect(afterForget.body.results.map((r: any) => r.id)).not.toContain(forgotten);
    } finally {
      if (!(await fetch(`${env.ELASTICSEARCH_URL}/_cluster/health`).then((r) => r.ok).catch(() => false))) {
        await startService('elasticsearch', { port: entry.port, dir: entry.dir });
      }
    }
  }, 600_000);
});
