import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../core/logger.js';
import { redisContents, testRedisUrl } from '../support/redis.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * Erasure reaches the bytes: after forgetting a memory or erasing a user, a unique
 * marker written into the content is found in no file of DATA_DIR (database, WAL,
 * caches and the debug-level log written there) and in no Redis key of any type.
 */

const newMarker = () => `zq${randomBytes(6).toString('hex')}`;
const capitalised = (s: string) => s[0].toUpperCase() + s.slice(1);

/** Every file under `dir` whose bytes contain `marker`, case-insensitively (facts and entities keep lowercased copies). */
function filesContaining(dir: string, marker: string): string[] {
  const hits: string[] = [];
  const needle = marker.toLowerCase();
  const walk = (path: string) => {
    if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
    else if (readFileSync(path).toString('latin1').toLowerCase().includes(needle)) hits.push(path);
  };
  walk(dir);
  return hits;
}

/** Every Redis key whose name or value contains `marker`, case-insensitively. */
async function redisKeysContaining(redis: Redis, marker: string): Promise<string[]> {
  const needle = marker.toLowerCase();
  return (await redisContents(redis)).filter(({ key, text }) => `${key}\n${text}`.toLowerCase().includes(needle)).map(({ key }) => key);
}

for (const mode of ['embedded', 'bullmq'] as const) {
  describe(`erasure reaches the disk (${mode})`, () => {
    let t: TestServer;
    let redis: Redis | null = null;

    beforeAll(async () => {
      const env: Record<string, string> = mode === 'bullmq' ? { REDIS_URL: testRedisUrl() } : {};
      const { mkdtempSync } = await import('node:fs');
      const { tmpdir } = await import('node:os');
      const dataDir = mkdtempSync(join(tmpdir(), 'engram-erasure-'));
      // The most talkative level, written into DATA_DIR so the scans cover the logs too.
      const logger = createLogger('debug', 'engram', pino.destination({ dest: join(dataDir, 'engram.log'), sync: true }));
      t = await startTestServer(env, { dataDir, logger });
      if (mode === 'bullmq') redis = new Redis(testRedisUrl());
    });
    afterAll(async () => {
      await redis?.quit();
      await t?.close();
      const { rmSync } = await import('node:fs');
      if (t) rmSync(t.dataDir, { recursive: true, force: true });
    });

    const leftovers = async (marker: string) => ({
      files: filesContaining(t.dataDir, marker),
      redis: redis ? await redisKeysContaining(redis, marker) : [],
    });

    it('user erasure leaves no byte of the user content in DATA_DIR, the logs or Redis', async () => {
      const marker = newMarker();
      const place = capitalised(marker);
      const api = t.api();
      const user = `erase-${mode}`;
      const writes = [
        { content: `I live in ${place}.`, user_id: user, metadata: { note: marker, nested: { list: [marker, 1] } } },
        { content: `My sister ${place} works at Siemens.`, user_id: user },
        { content: `I love ${marker} tea and I work at ${place} Labs.`, user_id: user, run_id: 'r1' },
      ];
      const ids: string[] = [];
      for (const w of writes) {
        const res = await api.post('/v1/memories', w);
        expect(res.status).toBe(200);
        ids.push(res.body.id);
      }
      expect((await api.patch(`/v1/memories/${ids[2]}`, { content: `I moved to ${place} City last week.` })).status).toBe(200);
      const batch = await api.post('/v1/batch', {
        memories: [
          { content: `I prefer ${marker} coffee.`, user_id: user, metadata: { tag: marker } },
          { content: `My doctor is Dr ${place}.`, user_id: user, timestamp: '2024-01-02T00:00:00Z' },
        ],
      });
      expect(batch.status).toBe(202);
      const fact = await api.post('/v1/facts', { subject: 'user', predicate: 'likes', object: `${marker} cake`, user_id: user });
      expect(fact.status).toBe(200);
      expect((await api.post('/v1/memories/search', { query: `where is ${place}`, user_id: user })).status).toBe(200);
      expect((await api.get(`/v1/context?query=${encodeURIComponent(marker)}&user_id=${user}`)).status).toBe(200);
      // Another user's data stays, and has nothing of the marker.
      expect((await api.post('/v1/memories', { content: 'I live in Lisbon.', user_id: `keep-${mode}` })).status).toBe(200);
      await t.settle();

      // The scan can see the marker before erasure (otherwise it proves nothing).
      const facts = await api.get(`/v1/facts?user_id=${user}&include_invalidated=true`);
      expect(JSON.stringify(facts.body).toLowerCase()).toContain(marker);
      expect(filesContaining(t.dataDir, marker).length).toBeGreaterThan(0);

      const erased = await api.delete(`/v1/users/${user}/memories`);
      expect(erased.status).toBe(200);
      expect(erased.body.memories_forgotten).toBe(5);

      expect(await leftovers(marker)).toEqual({ files: [], redis: [] });
      const kept = await api.get(`/v1/memories?user_id=keep-${mode}`);
      expect(kept.body.total).toBe(1);
    });

    it('forgetting a memory leaves no byte of its content or metadata; the stub and audit row stay', async () => {
      const marker = newMarker();
      const api = t.api();
      const added = await api.post('/v1/memories', {
        content: `Reference number ${marker} was recorded.`,
        user_id: `forget-${mode}`,
        metadata: { ref: marker, deep: { deeper: [marker] } },
      });
      expect(added.status).toBe(200);
      await t.settle();
      // Premise: this content yields no fact, whose text the contract keeps (invalidated) after a forget.
      const facts = await api.get(`/v1/facts?user_id=forget-${mode}&include_invalidated=true`);
      expect(JSON.stringify(facts.body).toLowerCase()).not.toContain(marker);
      expect(filesContaining(t.dataDir, marker).length).toBeGreaterThan(0);

      const forgotten = await api.delete(`/v1/memories/${added.body.id}`);
      expect(forgotten.status).toBe(200);
      expect(forgotten.body.status).toBe('forgotten');

      expect(await leftovers(marker)).toEqual({ files: [], redis: [] });
      const history = await api.get(`/v1/memories/${added.body.id}/history`);
      expect(history.status).toBe(200);
      expect(history.body.events.map((e: { event: string }) => e.event)).toContain('deleted');
      const audit = await api.get(`/v1/audit?action=memory.forget`);
      expect(audit.body.events.some((e: { target_id: string }) => e.target_id === added.body.id)).toBe(true);
    });
  });
}
