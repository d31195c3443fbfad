import type { Config } from '../../core/config.js';
import type { Embedder } from '../types.js';
import { createGloveEmbedder } from './glove-embedder.js';
import { createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';
import { JoinedEmbedder } from './joined-embedder.js';
// Loads onnxruntime-node only when an ONNX embedder is created.
import { createOnnxEmbedder } from './onnx-embedder.js';
import { shippedModelDir } from '../onnx.js';

/** The conversation-tuned sentence encoder shipped in models/embedder/ (training/embedder/MODEL_CARD.md). */
export const DEFAULT_EMBEDDER_DIR = shippedModelDir('embedder', 'sentence_bert_config.json');
/** EMBEDDER=model: the tuned encoder's share of the cosine, beside the lexical default (chosen on LoCoMo development). */
export const MODEL_DENSE_WEIGHT = 0.6;

export type EmbedderConfig = Pick<
  Config,
  'EMBEDDER' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'EMBEDDING_MODEL' | 'EMBEDDING_DIMENSIONS' | 'DATA_DIR' | 'ONNX_MODEL_DIR'
> & {
  /** Where the GloVe cache lives; default `<DATA_DIR>/cache`. */
  CACHE_DIR?: string;
};

/** Tuning knobs that are not configuration (tests use them to shorten retry backoff). */
export interface EmbedderOverrides {
  openai?: Pick<OpenAIEmbedderOptions, 'batchSize' | 'retry' | 'timeoutMs'>;
}

/**
 * The embedder the configuration asks for. `glove` builds its cache under CACHE_DIR
 * (default `<DATA_DIR>/cache/`) on first use (a few seconds, once); `openai` probes the model's
 * dimensions with one request unless EMBEDDING_DIMENSIONS is set; `onnx` loads the model in ONNX_MODEL_DIR; `model`
 * joins the shipped conversation-tuned encoder to the `glove` vector.
 */
export async function createEmbedder(config: EmbedderConfig, overrides: EmbedderOverrides = {}): Promise<Embedder> {
  switch (config.EMBEDDER) {
    case 'glove':
      return createGloveEmbedder(config.DATA_DIR, { cacheDir: config.CACHE_DIR });
    // `auto` is resolved against the store before services are built (core/embedder-guard.ts); alone, it is a new store's.
    case 'auto':
    case 'model': {
      const [dense, lexical] = await Promise.all([
        // One text per inference call: the model's int8 layers scale activations over the whole call, so a text
        // batched with others would get a slightly different vector from the same text alone.
        createOnnxEmbedder({ modelDir: DEFAULT_EMBEDDER_DIR, batchSize: 1 }),
        createGloveEmbedder(config.DATA_DIR, { cacheDir: config.CACHE_DIR }),
      ]);
      return new JoinedEmbedder(dense, lexical, MODEL_DENSE_WEIGHT);
    }
    case 'openai':
      return createOpenAIEmbedder({
        ...overrides.openai,
        baseURL: config.OPENAI_BASE_URL,
        apiKey: config.OPENAI_API_KEY,
        model: config.EMBEDDING_MODEL,
        dimensions: config.EMBEDDING_DIMENSIONS,
      });
    case 'onnx': {
      if (!config.ONNX_MODEL_DIR) throw new Error('ONNX_MODEL_DIR is required when EMBEDDER=onnx');
      return createOnnxEmbedder({ modelDir: config.ONNX_MODEL_DIR });
    }
    default:
      throw new Error(`Unknown EMBEDDER: ${String((config as { EMBEDDER: unknown }).EMBEDDER)}`);
  }
}

export { cosine, toUnitScore } from './vector-math.js';
export { ensureGloveCache, gloveCachePath } from './glove-cache.js';
export { GLOVE_EMBEDDER_ID, GloveEmbedder, createGloveEmbedder } from './glove-embedder.js';
export { EmbeddingResponseError, OpenAIEmbedder, createOpenAIEmbedder, type OpenAIEmbedderOptions } from './openai-embedder.js';
