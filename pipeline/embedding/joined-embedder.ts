import type { Embedder } from '../types.js';

/**
 * One vector made of two embedders' unit vectors, each scaled by the square root of its weight, so that the cosine
 * of two joined vectors is `w · cosine(dense) + (1 − w) · cosine(lexical)`. Search stays one vector comparison (the
 * contract's "cosine between embeddings") while a trained dense encoder and the lexical default both speak.
 * Queries go through the lexical embedder's `embedQuery` (collection term weights, no length prior).
 */
export class JoinedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly denseScale: number;
  private readonly lexicalScale: number;

  constructor(
    private readonly dense: Embedder,
    private readonly lexical: Embedder,
    denseWeight: number,
  ) {
    if (!(denseWeight > 0 && denseWeight < 1)) throw new RangeError(`dense weight must be in (0, 1), got ${denseWeight}`);
    this.id = `${dense.id}*${denseWeight}+${lexical.id}`;
    this.dimensions = dense.dimensions + lexical.dimensions;
    this.denseScale = Math.sqrt(denseWeight);
    this.lexicalScale = Math.sqrt(1 - denseWeight);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const [dense, lexical] = await Promise.all([this.dense.embed(texts), this.lexical.embed(texts)]);
    return dense.map((vector, i) => this.join(vector, lexical[i]));
  }

  async embedQuery(text: string, termWeight?: (stem: string) => number): Promise<Float32Array> {
    const [[dense], lexical] = await Promise.all([
      this.dense.embed([text]),
      this.lexical.embedQuery ? this.lexical.embedQuery(text, termWeight) : this.lexical.embed([text]).then(([v]) => v),
    ]);
    return this.join(dense, lexical);
  }

  private join(dense: Float32Array, lexical: Float32Array): Float32Array {
    const out = new Float32Array(this.dimensions);
    for (let i = 0; i < dense.length; i++) out[i] = dense[i] * this.denseScale;
    for (let i = 0; i < lexical.length; i++) out[dense.length + i] = lexical[i] * this.lexicalScale;
    return out;
  }
}
