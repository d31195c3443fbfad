import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { onnxTestModel } from '../../test/support/onnx-model.js';
import { createEmbedder } from './index.js';
import type { Embedder } from '../types.js';
import { cosine } from './vector-math.js';

const model = await onnxTestModel();
if ('skip' in model) console.warn(`ONNX embedder tests skipped: ${model.skip}`);
const modelDir = 'dir' in model ? model.dir : '';

describe.skipIf('skip' in model)('OnnxEmbedder (all-MiniLM-L6-v2, int8)', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await createEmbedder(loadConfig({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: modelDir }));
  });

  it('names the model in its id and gives 384 unit-length dimensions', async () => {
    expect(embedder.id).toMatch(/^onnx:all-MiniLM-L6-v2-int8@[0-9a-f]{12}$/);
    expect(embedder.dimensions).toBe(384);
    const texts = ['I adopted a beagle puppy named Max.', '東京に住んでいます 🍣', '', 'ok', 'word '.repeat(1000)];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const vector of vectors) {
      expect(vector.length).toBe(384);
      expect(Math.sqrt(cosine(vector, vector))).toBeCloseTo(1, 5);
    }
  });

  it('gives a text the same vector alone as in a padded batch, in input order', async () => {
    const texts = ['short', 'A much longer sentence about moving to Amsterdam with my sister in the spring of 2019.', 'mid length text here'];
    const batch = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      expect(cosine(alone, batch[i])).toBeCloseTo(1, 5);
    }
  });

  it('ranks each paraphrase above every unrelated sentence', async () => {
    const pairs = [
      ['I adopted a beagle puppy named Max.', 'We got a young dog, a beagle, and called him Max.'],
      ['My sister moved to Amsterdam last spring.', 'Last spring my sister relocated to the Netherlands capital.'],
      ['I am allergic to peanuts.', 'Eating peanuts gives me an allergic reaction.'],
      ['The quarterly tax report is due on Friday.', 'We have to file the tax report for the quarter by Friday.'],
      ['I started learning to play the violin.', 'I have begun taking violin lessons.'],
    ];
    const vectors = await embedder.embed(pairs.flat());
    for (let i = 0; i < pairs.length; i++) {
      const query = vectors[2 * i];
      const paraphrase = cosine(query, vectors[2 * i + 1]);
      for (let j = 0; j < pairs.length; j++) {
        if (j !== i) expect(paraphrase, `${pairs[i][0]} vs ${pairs[j][1]}`).toBeGreaterThan(cosine(query, vectors[2 * j + 1]) + 0.1);
      }
    }
  });
});

describe('ONNX_MODEL_DIR validation', () => {
  it('is required when EMBEDDER=onnx', () => {
    expect(() => loadConfig({ EMBEDDER: 'onnx' })).toThrow(/ONNX_MODEL_DIR: required when EMBEDDER=onnx/);
  });

  it('names the missing model or tokenizer file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-onnx-'));
    expect(() => loadConfig({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: join(dir, 'nope') })).toThrow(/ONNX_MODEL_DIR: .*does not exist/);
    expect(() => loadConfig({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: dir })).toThrow(/ONNX_MODEL_DIR: .*has no model\.onnx/);
    if (modelDir) {
      copyFileSync(join(modelDir, 'model.onnx'), join(dir, 'model.onnx'));
      expect(() => loadConfig({ EMBEDDER: 'onnx', ONNX_MODEL_DIR: dir })).toThrow(/ONNX_MODEL_DIR: .*has no tokenizer\.json/);
    }
  });

  it('is ignored by the other embedders', () => {
    expect(loadConfig({ EMBEDDER: 'glove', ONNX_MODEL_DIR: '/nowhere' }).EMBEDDER).toBe('glove');
  });
});
