/** Cosine similarity of two L2-normalised vectors (a plain dot product). 0 when either is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`cosine: dimension mismatch (${a.length} vs ${b.length})`);
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i] * b[i];
  return dot;
}

/**
 * Maps a cosine to the [0, 1] score the API reports. Negative cosines mean "unrelated" for
 * text embeddings, not "opposite", so they clamp to 0 rather than being rescaled: (cos+1)/2 would
 * give unrelated texts a misleading 0.5. Non-finite input also maps to 0.
 */
export function toUnitScore(cos: number): number {
  if (!Number.isFinite(cos) || cos <= 0) return 0;
  return cos >= 1 ? 1 : cos;
}

/** Scales `vector` in place to unit L2 norm; returns false (leaving it unchanged) when its norm is 0. */
export function normalizeInPlace(vector: Float32Array | Float64Array): boolean {
  let sumSquares = 0;
  for (let i = 0; i < vector.length; i++) sumSquares += vector[i] * vector[i];
  if (!(sumSquares > 0) || !Number.isFinite(sumSquares)) return false;
  const inverse = 1 / Math.sqrt(sumSquares);
  for (let i = 0; i < vector.length; i++) vector[i] *= inverse;
  return true;
}
