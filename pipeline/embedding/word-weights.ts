/**
 * Informativeness of a word from its frequency rank alone.
 *
 * The vocabulary is sorted by corpus frequency, so under Zipf's law a word of
 * rank r has probability p(r) ≈ 1 / ((r + 1) · H), H ≈ ln(V) + γ. The weight is
 * SIF's a / (a + p(r)) (Arora et al., 2017): ~0 for "the", ~1 for rare words.
 * Using the static rank instead of statistics of the stored memories means a
 * memory's vector never changes as the store grows.
 */

const EULER_GAMMA = 0.5772156649;

export function zipfProbability(rank: number, vocabularySize: number): number {
  return 1 / ((rank + 1) * (Math.log(vocabularySize) + EULER_GAMMA));
}

export function sifWeight(rank: number, vocabularySize: number, smoothing: number): number {
  return smoothing / (smoothing + zipfProbability(rank, vocabularySize));
}
