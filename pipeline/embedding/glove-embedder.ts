import { createHash } from 'node:crypto';
import type { Embedder } from '../types.js';
import { ensureGloveCache, loadGloveTable, type GloveCacheLocation, type GloveTable } from './glove-cache.js';
import { createSentenceEncoder, DEFAULT_RECIPE, sentenceDimensions, type SentenceEncoder, type SentenceRecipe } from './sentence-encoder.js';

/** Changes whenever the vectors this embedder produces change (cache format, recipe, tokenizer). */
export const GLOVE_EMBEDDER_ID = 'glove-sg100d+ngram+lex-v3';

// Texts encoded between two event-loop turns, so a big batch does not stall an API process.
const TEXTS_PER_TURN = 256;

/** Offline default embedder: GloVe word vectors + hashed character n-grams. Deterministic. */
export class GloveEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly encode: SentenceEncoder;

  constructor(table: GloveTable, recipe: SentenceRecipe = DEFAULT_RECIPE) {
    this.id = recipeId(recipe);
    this.dimensions = sentenceDimensions(table, recipe);
    this.encode = createSentenceEncoder(table, recipe);
  }

  /** Synchronous single-text variant, for callers that embed one text in a hot loop. */
  embedOne(text: string): Float32Array {
    return this.encode(text);
  }

  /** A query's vector (no length prior), its words scaled by `termWeight(stem)` (collection statistics) when given. */
  embedQuery(text: string, termWeight?: (stem: string) => number): Float32Array {
    return this.encode(text, { termWeight });
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let i = 0; i < texts.length; i++) {
      if (i > 0 && i % TEXTS_PER_TURN === 0) await new Promise<void>((resolve) => setImmediate(resolve));
      vectors.push(this.encode(texts[i]));
    }
    return vectors;
  }
}

/** A custom recipe makes different vectors, so it gets its own id. */
function recipeId(recipe: SentenceRecipe): string {
  const fingerprint = JSON.stringify(recipe);
  if (fingerprint === JSON.stringify(DEFAULT_RECIPE)) return GLOVE_EMBEDDER_ID;
  return `${GLOVE_EMBEDDER_ID}-custom-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 8)}`;
}

/** Builds the binary cache (default `<dataDir>/cache/`) on first use, then loads it. */
export async function createGloveEmbedder(
  dataDir: string,
  location: GloveCacheLocation = {},
  recipe: SentenceRecipe = DEFAULT_RECIPE,
): Promise<GloveEmbedder> {
  const table = await loadGloveTable(await ensureGloveCache(dataDir, location));
  return new GloveEmbedder(table, recipe);
}
