import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import type { Embedder } from '../types.js';
import { createEmbedder, DEFAULT_EMBEDDER_DIR, MODEL_DENSE_WEIGHT } from './index.js';
import { SHARED_TEST_CACHE_DIR } from './test-helpers.js';
import { cosine } from './vector-math.js';

const settings = { DATA_DIR: 'unused-data-dir', CACHE_DIR: SHARED_TEST_CACHE_DIR };

describe('EMBEDDER=model: the shipped conversation-tuned encoder joined to the lexical default', () => {
  let joined: Embedder;
  let lexical: Embedder;
  let dense: Embedder;
  beforeAll(async () => {
    [joined, lexical, dense] = await Promise.all([
      createEmbedder(loadConfig({ ...settings, EMBEDDER: 'model' })),
      createEmbedder(loadConfig({ ...settings, EMBEDDER: 'glove' })),
      createEmbedder(loadConfig({ ...settings, EMBEDDER: 'onnx', ONNX_MODEL_DIR: DEFAULT_EMBEDDER_DIR })),
    ]);
  });

  it('gives unit vectors of both blocks, and an id naming both and the weight', async () => {
    expect(joined.dimensions).toBe(384 + lexical.dimensions);
    expect(joined.id).toMatch(new RegExp(`^onnx:embedder@[0-9a-f]{12}\\*${MODEL_DENSE_WEIGHT}\\+${lexical.id.replace(/[+.]/g, '\\$&')}$`));
    for (const vector of [...(await joined.embed(['Caroline: I adopted a beagle.', '', '東京 🍣'])), await joined.embedQuery!('what pet?')]) {
      expect(vector.length).toBe(joined.dimensions);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
    }
  });

  it("scores a query against a memory as the weighted sum of the two embedders' cosines", async () => {
    const query = 'What instrument has Caroline been learning?';
    const stored = "Caroline: I've been practising the cello every evening since March.";
    const weight = (stem: string) => (stem === 'carolin' ? 0.2 : 1);
    const [joinedQuery, [joinedStored]] = await Promise.all([joined.embedQuery!(query, weight), joined.embed([stored])]);
    const [lexicalQuery, [lexicalStored]] = await Promise.all([lexical.embedQuery!(query, weight), lexical.embed([stored])]);
    const [[denseQuery], [denseStored]] = await Promise.all([dense.embed([query]), dense.embed([stored])]);
    const expected = MODEL_DENSE_WEIGHT * cosine(denseQuery, denseStored) + (1 - MODEL_DENSE_WEIGHT) * cosine(lexicalQuery, lexicalStored);
    expect(cosine(joinedQuery, joinedStored)).toBeCloseTo(expected, 4);
  });

  it('gives a text the same vector whatever it is embedded with', async () => {
    const texts = ['Caroline: I adopted a beagle.', 'Melanie: We went camping by the lake last weekend, the kids loved it.', 'ok'];
    const together = await joined.embed(texts);
    for (const [i, text] of texts.entries()) expect(Array.from((await joined.embed([text]))[0])).toEqual(Array.from(together[i]));
  });
});
