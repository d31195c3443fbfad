import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGloveEmbedder } from '../../../pipeline/embedding/index.js';
import type { Embedder } from '../../../pipeline/types.js';
import { sharedContentWords } from './content-words.js';
import { holdoutUsers, memories, queries } from './dataset.js';
import { evaluateEmbedder, type EmbedderEvaluation } from './evaluate-embedder.js';
import { recallAtK, reciprocalRank, summarize } from './metrics.js';

// Same directory as pipeline/embedding's tests, so the GloVe cache is built once per machine.
const SHARED_TEST_CACHE_DIR = join(tmpdir(), 'engram-test-cache');

describe('retrieval dataset', () => {
  const byKey = new Map(memories.map((m) => [m.key, m]));

  it('is big and varied enough', () => {
    expect(memories.length).toBeGreaterThanOrEqual(150);
    expect(queries.length).toBeGreaterThanOrEqual(60);
    expect(new Set(memories.map((m) => m.user_id)).size).toBeGreaterThanOrEqual(5);
    expect(queries.filter((q) => q.kind === 'paraphrase').length).toBeGreaterThanOrEqual(40);
    for (const user of holdoutUsers) expect(queries.some((q) => q.user_id === user)).toBe(true);
  });

  it('has unique keys and relevant memories that exist and belong to the querying user', () => {
    expect(byKey.size).toBe(memories.length);
    for (const query of queries) {
      expect(query.relevant.length, query.query).toBeGreaterThan(0);
      for (const key of query.relevant) expect(byKey.get(key)?.user_id, `${query.query} -> ${key}`).toBe(query.user_id);
    }
  });

  it('has paraphrase queries that share no content word with their memories', () => {
    for (const query of queries.filter((q) => q.kind === 'paraphrase')) {
      const shared = query.relevant.flatMap((key) => sharedContentWords(query.query, byKey.get(key)!.content));
      expect(shared, query.query).toEqual([]);
    }
  });

  it('detects shared words loosely (plural, shared 5-letter stem)', () => {
    expect(sharedContentWords('Any allergies?', "I'm allergic to cats")).toEqual(['allergies']);
    expect(sharedContentWords('What dogs?', 'my dog')).toEqual(['dogs']);
    expect(sharedContentWords('What kind of dog do they have?', 'I adopted a beagle puppy')).toEqual([]);
  });
});

describe('retrieval metrics', () => {
  it('computes capped recall@k', () => {
    expect(recallAtK(['a', 'b', 'c'], ['b'], 1)).toBe(0);
    expect(recallAtK(['a', 'b', 'c'], ['b'], 2)).toBe(1);
    expect(recallAtK(['a', 'b', 'c', 'd'], ['a', 'd'], 1)).toBe(1);
    expect(recallAtK(['a', 'b', 'c', 'd'], ['a', 'd'], 2)).toBe(0.5);
    expect(recallAtK(['a', 'b', 'c', 'd'], ['a', 'd'], 5)).toBe(1);
    expect(() => recallAtK(['a'], [], 1)).toThrow();
  });

  it('computes reciprocal rank of the first relevant id', () => {
    expect(reciprocalRank(['a', 'b', 'c'], ['c', 'b'])).toBe(0.5);
    expect(reciprocalRank(['a', 'b'], ['z'])).toBe(0);
  });

  it('averages over queries', () => {
    const metrics = summarize([
      { ranked: ['a', 'b'], relevant: ['a'] },
      { ranked: ['a', 'b', 'c', 'd', 'e', 'f'], relevant: ['f'] },
    ]);
    expect(metrics).toEqual({ queries: 2, recallAt1: 0.5, recallAt5: 0.5, mrr: (1 + 1 / 6) / 2 });
  });
});

describe('default embedder on the retrieval set', () => {
  let evaluation: EmbedderEvaluation;
  beforeAll(async () => {
    evaluation = await evaluateEmbedder(await createGloveEmbedder('unused-data-dir', { cacheDir: SHARED_TEST_CACHE_DIR }));
  });

  // Floors sit a little under the measured values (R@1 0.636, R@5 0.889, MRR 0.752;
  // paraphrases 0.520 / 0.855 / 0.671), so a recipe regression fails here.
  it('stays above the recall and MRR floors', () => {
    expect(evaluation.overall.queries).toBe(queries.length);
    expect(evaluation.overall.recallAt1).toBeGreaterThanOrEqual(0.6);
    expect(evaluation.overall.recallAt5).toBeGreaterThanOrEqual(0.85);
    expect(evaluation.overall.mrr).toBeGreaterThanOrEqual(0.72);
    expect(evaluation.byKind.paraphrase.mrr).toBeGreaterThanOrEqual(0.63);
    expect(evaluation.byKind.lexical.recallAt5).toBeGreaterThanOrEqual(0.95);
    expect(evaluation.bySplit.holdout.mrr).toBeGreaterThanOrEqual(0.69);
  });

  it('ranks only the querying user’s memories', () => {
    for (const outcome of evaluation.outcomes) {
      const own = memories.filter((m) => m.user_id === outcome.user_id).length;
      expect(outcome.ranked).toHaveLength(own);
    }
  });

  it('scores an embedder that ignores its input near chance', async () => {
    const constant: Embedder = {
      id: 'constant',
      dimensions: 2,
      embed: async (texts) => texts.map(() => new Float32Array([1, 0])),
    };
    const chance = await evaluateEmbedder(constant);
    expect(chance.overall.mrr).toBeLessThan(0.3);
  });
});
