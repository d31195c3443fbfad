import { stemmer } from 'stemmer';
import { addTokenNgrams, addWholeToken, type NgramSpec } from './char-ngrams.js';
import type { GloveTable } from './glove-cache.js';
import { isStopWord } from './stop-words.js';
import { normalizeText, tokenize, vocabularyFallbacks } from './tokenize.js';
import { normalizeInPlace } from './vector-math.js';
import { sifWeight, zipfProbability } from './word-weights.js';

/**
 * Sentence vector = [ word-vector block | hashed n-gram block | empty-text marker ].
 *
 * - word-vector block: SIF-weighted sum of unit GloVe vectors of the non-stop
 *   tokens, minus the common direction all text shares, normalised.
 * - n-gram block: hashed character n-grams of the same tokens, each token weighted
 *   like its word (tokens missing from the vocabulary get `unknownTokenWeight`), normalised.
 * - The blocks are mixed so that cos(x, y) = (1 - ngramShare)·cos_words + ngramShare·cos_ngrams
 *   when both texts have both blocks.
 * - A text without any feature (empty, whitespace, punctuation, only stop words) gets
 *   the unit vector on the last "empty" dimension: cosine 0 with every other text,
 *   1 with other empty texts, never NaN, and still a valid unit vector for stores
 *   that reject zero vectors.
 */
export interface SentenceRecipe {
  ngram: NgramSpec;
  /** Share of the final cosine that comes from the n-gram block, in [0, 1]. */
  ngramShare: number;
  /** SIF smoothing `a`: larger values flatten the weights of frequent words less. */
  sifSmoothing: number;
  /** Weight of a token absent from the vocabulary (names, numbers): feeds only the n-gram block. */
  unknownTokenWeight: number;
  /** Most frequent words that define the common direction; 0 disables its removal. */
  commonDirectionWords: number;
  /**
   * Lexical block: each distinct stemmed token hashed into `buckets` signed dimensions, weighted by
   * its informativeness (an IDF taken from the word's frequency rank), so that shared rare words
   * count the way they do in keyword search. `share` of the final cosine, taken from the others.
   */
  lexical?: { buckets: number; share: number; weight: 'sif' | 'idf' | 'flat' };
  /**
   * Weight of the words of a leading speaker label ("Caroline: …"); 1 treats them as any other
   * words. Who said a line tells more about whose fact it is than the names mentioned in it.
   */
  speakerLabelWeight?: number;
  /** Possessives and compounds ("caroline's", "dog-friendly") feed the lexical block as their words. */
  splitLexicalWords?: boolean;
  /**
   * Document length prior (pivoted length normalisation in cosine form): a stored text with n
   * distinct content words < `words` moves part of its length onto a dimension queries never use,
   * which scales its cosine with every query by (n / words)^exponent. Cosine normalisation alone
   * favours short texts ("Thanks, Nate!") over the long ones that carry the facts.
   */
  lengthPivot?: { words: number; exponent: number };
}

export const DEFAULT_RECIPE: Readonly<SentenceRecipe> = Object.freeze({
  ngram: Object.freeze({ minN: 3, maxN: 4, buckets: 283 }),
  ngramShare: 0.4,
  sifSmoothing: 1e-3,
  unknownTokenWeight: 1,
  commonDirectionWords: 50_000,
  lexical: Object.freeze({ buckets: 256, share: 0.3, weight: 'sif' as const }),
  speakerLabelWeight: 2,
  splitLexicalWords: true,
  lengthPivot: Object.freeze({ words: 32, exponent: 0.25 }),
});

export function sentenceDimensions(table: Pick<GloveTable, 'dimensions'>, recipe: SentenceRecipe): number {
  return table.dimensions + recipe.ngram.buckets + (recipe.lexical?.buckets ?? 0) + (recipe.lengthPivot ? 1 : 0) + 1;
}

/**
 * Encodes a stored text, or a query when `query` is given: queries carry no length prior, and
 * `termWeight` scales each query word by a factor for its stem, e.g. an inverse document frequency
 * from the searched collection, so words every memory shares stop dominating the query.
 */
export type SentenceEncoder = (text: string, query?: { termWeight?: (stem: string) => number }) => Float32Array;

export function createSentenceEncoder(table: GloveTable, recipe: SentenceRecipe = DEFAULT_RECIPE): SentenceEncoder {
  const wordDims = table.dimensions;
  const lexicalStart = wordDims + recipe.ngram.buckets;
  const lexicalBuckets = recipe.lexical?.buckets ?? 0;
  const lengthPad = lexicalStart + lexicalBuckets;
  const emptyMarker = lengthPad + (recipe.lengthPivot ? 1 : 0);
  const dimensions = emptyMarker + 1;
  const wordWeights = new Float32Array(table.wordCount);
  for (let rank = 0; rank < table.wordCount; rank++) wordWeights[rank] = sifWeight(rank, table.wordCount, recipe.sifSmoothing);
  const commonDirection = computeCommonDirection(table, wordWeights, recipe.commonDirectionWords);
  const { vectors, scales, rankOf } = table;
  const lexicalShare = recipe.lexical?.share ?? 0;
  const maxIdf = -Math.log(zipfProbability(table.wordCount - 1, table.wordCount));
  // Informativeness of a token for the lexical block; unknown tokens (names, numbers) count as rare words.
  const lexicalWeight = (rank: number | undefined): number => {
    if (rank === undefined) return 1;
    if (recipe.lexical?.weight === 'flat') return 1;
    if (recipe.lexical?.weight === 'idf') return -Math.log(zipfProbability(rank, table.wordCount)) / maxIdf;
    return wordWeights[rank];
  };

  return (text: string, query?: { termWeight?: (stem: string) => number }): Float32Array => {
    const termWeight = query?.termWeight;
    const features = new Float64Array(dimensions);
    const wordBlock = features.subarray(0, wordDims);
    const ngramBlock = features.subarray(wordDims, lexicalStart);
    const lexicalBlock = features.subarray(lexicalStart, lengthPad);

    // Adds the word's weighted unit vector; returns its weight.
    let factor = 1;
    const addWord = (rank: number): number => {
      const weight = wordWeights[rank] * factor;
      const scale = weight * scales[rank];
      const row = rank * wordDims;
      for (let d = 0; d < wordDims; d++) wordBlock[d] += scale * vectors[row + d];
      return weight;
    };

    const { label, body } = splitSpeakerLabel(text, recipe.speakerLabelWeight);
    const labelTokens = label ? tokenize(normalizeText(label)) : [];
    const tokens = [...labelTokens, ...tokenize(normalizeText(body))];
    const contentStems = new Set<string>();
    tokens.forEach((token, index) => {
      if (isStopWord(token)) return;
      const words = recipe.splitLexicalWords ? lexicalWords(token) : [token];
      const stems = words.map((word) => stemmer(word));
      const labelFactor = index < labelTokens.length ? (recipe.speakerLabelWeight ?? 1) : 1;
      factor = labelFactor * (termWeight ? Math.max(0, ...stems.map(termWeight)) : 1);
      if (factor <= 0) return;
      const rank = rankOf.get(token);
      stems.forEach((stem, i) => {
        // Each stem counts once (keyword search saturates term frequency quickly).
        if (contentStems.has(stem)) return;
        contentStems.add(stem);
        if (lexicalBuckets) addWholeToken(stem, lexicalWeight(words.length === 1 ? rank : rankOf.get(words[i])) * factor, lexicalBlock, lexicalBuckets);
      });
      let tokenWeight = 0;
      if (rank !== undefined) {
        tokenWeight = addWord(rank);
      } else {
        for (const part of vocabularyFallbacks(token)) {
          const partRank = isStopWord(part) ? undefined : rankOf.get(part);
          if (partRank !== undefined) tokenWeight = Math.max(tokenWeight, addWord(partRank));
        }
        if (tokenWeight === 0) tokenWeight = recipe.unknownTokenWeight * factor;
      }
      if (tokenWeight > 0) addTokenNgrams(token, tokenWeight, ngramBlock, 0, recipe.ngram);
    });

    if (commonDirection) subtractProjection(wordBlock, commonDirection);
    const otherShare = 1 - lexicalShare;
    const wordScale = normalizeInPlace(wordBlock) ? Math.sqrt(otherShare * (1 - recipe.ngramShare)) : 0;
    const ngramScale = normalizeInPlace(ngramBlock) ? Math.sqrt(otherShare * recipe.ngramShare) : 0;
    const lexicalScale = lexicalBuckets && normalizeInPlace(lexicalBlock) ? Math.sqrt(lexicalShare) : 0;

    const output = new Float32Array(dimensions);
    if (wordScale === 0 && ngramScale === 0 && lexicalScale === 0) {
      output[emptyMarker] = 1;
      return output;
    }
    for (let d = 0; d < wordDims; d++) output[d] = wordScale * wordBlock[d];
    for (let d = 0; d < ngramBlock.length; d++) output[wordDims + d] = ngramScale * ngramBlock[d];
    for (let d = 0; d < lexicalBuckets; d++) output[lexicalStart + d] = lexicalScale * lexicalBlock[d];
    // Renormalise: some blocks may be absent (all words unknown, or n-grams cancelled out).
    normalizeInPlace(output);
    if (recipe.lengthPivot && !query) {
      const { words, exponent } = recipe.lengthPivot;
      const kept = Math.min(1, (contentStems.size / words) ** exponent);
      for (let d = 0; d < lengthPad; d++) output[d] *= kept;
      output[lengthPad] = Math.sqrt(1 - kept * kept);
    }
    return output;
  };
}

/**
 * The expected weighted word vector of running English (Zipf frequency × SIF weight), i.e. the
 * direction every sentence vector leans towards. SIF removes the first principal component of a
 * corpus' sentence vectors; this is its corpus-free stand-in, fixed by the vocabulary alone.
 */
function computeCommonDirection(table: GloveTable, wordWeights: Float32Array, words: number): Float64Array | undefined {
  const direction = new Float64Array(table.dimensions);
  const limit = Math.min(words, table.wordCount);
  for (let rank = 0; rank < limit; rank++) {
    const scale = zipfProbability(rank, table.wordCount) * wordWeights[rank] * table.scales[rank];
    const row = rank * table.dimensions;
    for (let d = 0; d < table.dimensions; d++) direction[d] += scale * table.vectors[row + d];
  }
  return normalizeInPlace(direction) ? direction : undefined;
}

function subtractProjection(vector: Float64Array, unitDirection: Float64Array): void {
  let projection = 0;
  for (let d = 0; d < unitDirection.length; d++) projection += vector[d] * unitDirection[d];
  for (let d = 0; d < unitDirection.length; d++) vector[d] -= projection * unitDirection[d];
}

/** Letter/digit runs of a token that are not stop words: "caroline's" -> ["caroline"]. */
function lexicalWords(token: string): string[] {
  const words = token.split(/[^\p{L}\p{N}]+/u).filter((w) => w && !isStopWord(w));
  return words.length ? words : [token];
}

// "Caroline: …", "Dr Smith: …", "user: …": one to three words before a colon that opens the text.
const SPEAKER_LABEL = /^\s*([\p{L}][\p{L}\p{N}'’.\-]*(?:\s+[\p{L}][\p{L}\p{N}'’.\-]*){0,2})\s*:\s+(?=\S)/u;

function splitSpeakerLabel(text: string, weight: number | undefined): { label: string; body: string } {
  if (weight === undefined || weight === 1) return { label: '', body: text };
  const match = SPEAKER_LABEL.exec(text);
  return match ? { label: match[1], body: text.slice(match[0].length) } : { label: '', body: text };
}
