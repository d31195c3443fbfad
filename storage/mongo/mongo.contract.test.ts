import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeStoreContract } from '../contract/store-contract.js';
import { newWorkspaceId } from '../contract/fixtures.js';
import { MongoStore } from './store.js';

/**
 * Runs the shared Store contract against a real MongoDB-protocol server: `npm run test:backends` (FerretDB from
 * `npm run backends:up`), or MONGODB_URL=mongodb://localhost:27017 npx vitest run storage/mongo
 * Each run uses its own database (dropped afterwards).
 */
const url = process.env.MONGODB_URL?.trim();
const dbName = `engram_contract_${Date.now()}_${randomUUID().slice(0, 8)}`;
const clientOptions = { serverSelectionTimeoutMS: 5_000 };

if (url) {
  describeStoreContract(
    'mongodb',
    () => MongoStore.open(url, dbName, { clientOptions }),
    async (store) => {
      await (store as MongoStore).db.dropDatabase();
    },
  );

  describe('MongoStore specifics', () => {
    let a: MongoStore;
    let b: MongoStore;
    const db = `${dbName}_x`;

    beforeAll(async () => {
      a = await MongoStore.open(url, db, { clientOptions });
      b = await MongoStore.open(url, db, { clientOptions }); // second open: indexes already exist
    });

    afterAll(async () => {
      await a?.db.dropDatabase();
      await b?.close();
      await a?.close();
    });

    it('creates its indexes idempotently, including the unique ones', async () => {
      await a.ensureIndexes();
      const entityIndexes = await a.db.collection('entities').indexes();
      expect(entityIndexes.find((i) => i.name === 'scope_canonical')?.unique).toBe(true);
      const keyIndexes = await a.db.collection('api_keys').indexes();
      expect(keyIndexes.find((i) => i.name === 'hash')?.unique).toBe(true);
    });

    it('keeps the agent cap across separate clients (processes)', async () => {
      const ws = newWorkspaceId();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).agents.register(ws, `agent-${i}`, 5, new Date().toISOString())),
      );
      expect(outcomes.filter((o) => o === 'created')).toHaveLength(5);
      expect(await a.agents.count(ws)).toBe(5);
    });

    it('grants a contended lease to one client only', async () => {
      const key = `lock:${randomUUID()}`;
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).locks.tryAcquire(key, `owner-${i}`, 10_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('stores nulls explicitly (agentId: null is the default namespace, never a missing field)', async () => {
      const ws = newWorkspaceId();
      await a.entities.upsert({ workspaceId: ws, agentId: null, userId: null }, { canonical: 'x', name: 'X', type: 'thing', aliases: [] }, 'mem_1', new Date().toISOString());
      const raw = await a.db.collection('entities').findOne({ workspaceId: ws });
      expect(raw).toHaveProperty('agentId', null);
      expect(raw).toHaveProperty('userId', null);
    });
  });
} else {
  console.warn('MongoDB contract tests skipped: set MONGODB_URL to run them (e.g. MONGODB_URL=mongodb://localhost:27017 npx vitest run storage)');
  describe.skip('Store contract: mongodb (skipped: set MONGODB_URL to run)', () => {
    it('runs the shared Store contract against MongoDB', () => {});
  });
}

// Runs everywhere: no server needed.
describe('MongoStore.open', () => {
  it('rejects (and does not hang) when no server answers', async () => {
    await expect(
      MongoStore.open('mongodb://127.0.0.1:1', 'engram_unreachable', { clientOptions: { serverSelectionTimeoutMS: 300, connectTimeoutMS: 300 } }),
    ).rejects.toThrow();
  });
});
