import { randomUUID } from 'node:crypto';
import { Client } from '@elastic/elasticsearch';
import { describe, expect, it } from 'vitest';
import { describeVectorIndexContract } from '../contract/vector-contract.js';
import { VectorIndexUnavailableError } from '../vector/types.js';
import { ElasticsearchVectorIndex } from './index.js';

/**
 * Runs the shared VectorIndex contract against a real Elasticsearch 8 node: `npm run test:backends` (the node of
 * `npm run backends:up`), or ELASTICSEARCH_URL=http://localhost:9200 npx vitest run storage/elasticsearch
 * Each run uses its own index (deleted afterwards).
 */
const url = process.env.ELASTICSEARCH_URL?.trim();
const indexName = `engram-contract-${Date.now()}-${randomUUID().slice(0, 8)}`;
// A short refresh interval keeps `refresh: 'wait_for'` writes fast in tests.
const settings = { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '100ms' };

if (url) {
  describeVectorIndexContract(
    'elasticsearch',
    (dimensions) => ElasticsearchVectorIndex.open(url, { index: indexName, dimensions, settings }),
    async (index) => {
      await (index as ElasticsearchVectorIndex).deleteIndex();
    },
  );

  describe('ElasticsearchVectorIndex specifics', () => {
    it('opens an existing index idempotently and refuses one with other dimensions', async () => {
      const name = `${indexName}-x`;
      const a = await ElasticsearchVectorIndex.open(url, { index: name, dimensions: 3, settings });
      const b = await ElasticsearchVectorIndex.open(url, { index: name, dimensions: 3, settings });
      try {
        await b.ping();
        await expect(ElasticsearchVectorIndex.open(url, { index: name, dimensions: 5, settings })).rejects.toThrow(/5/);
      } finally {
        await a.deleteIndex();
        await a.close();
        await b.close();
      }
    });
  });
} else {
  console.warn('Elasticsearch contract tests skipped: set ELASTICSEARCH_URL to run them (e.g. ELASTICSEARCH_URL=http://localhost:9200 npx vitest run storage)');
  describe.skip('VectorIndex contract: elasticsearch (skipped: set ELASTICSEARCH_URL to run)', () => {
    it('runs the shared VectorIndex contract against Elasticsearch', () => {});
  });
}

// Runs everywhere: no cluster needed.
describe('ElasticsearchVectorIndex without a cluster', () => {
  it('ping and search fail with VectorIndexUnavailableError', async () => {
    const index = new ElasticsearchVectorIndex(new Client({ node: 'http://127.0.0.1:1', maxRetries: 0, requestTimeout: 2_000 }), { dimensions: 3 }, true);
    try {
      await expect(index.ping()).rejects.toBeInstanceOf(VectorIndexUnavailableError);
      await expect(index.search(new Float32Array([1, 0, 0]), { workspaceId: 'ws_x' }, 3)).rejects.toBeInstanceOf(VectorIndexUnavailableError);
    } finally {
      await index.close();
    }
  });
});
