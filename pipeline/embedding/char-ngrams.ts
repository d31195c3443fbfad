/**
 * Hashed character n-gram features ("feature hashing" with a sign bit), so that
 * names, numbers, typos and words missing from the word-vector vocabulary still
 * match: "Kubernetes" shares most of its 3–5 grams with "kubernetes cluster".
 */

export interface NgramSpec {
  minN: number;
  maxN: number;
  /** Number of hashed dimensions. */
  buckets: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const WHOLE_TOKEN_SEED = 0x9e3779b9;
const BOUNDARY = 0x3c; // '<' and '>' are outside the token alphabet, so they mark word edges

/** murmur3's finaliser: spreads FNV's weak low bits before taking a bucket and a sign. */
function mix(hash: number): number {
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

function codeAt(token: string, paddedIndex: number): number {
  if (paddedIndex === 0) return BOUNDARY;
  if (paddedIndex === token.length + 1) return BOUNDARY + 2;
  return token.charCodeAt(paddedIndex - 1);
}

/**
 * Adds the features of one token into `target[offset, offset + spec.buckets)`: every n-gram of
 * "<token>" with minN <= n <= maxN plus the whole token. The token's contribution has an L2 norm of
 * about `weight` whatever its length, so long words do not outweigh short ones.
 */
export function addTokenNgrams(token: string, weight: number, target: Float64Array, offset: number, spec: NgramSpec): void {
  const paddedLength = token.length + 2;
  let featureCount = 1;
  for (let n = spec.minN; n <= spec.maxN; n++) featureCount += Math.max(0, paddedLength - n + 1);
  const featureWeight = weight / Math.sqrt(featureCount);

  const emit = (hash: number) => {
    const mixed = mix(hash);
    const bucket = mixed % spec.buckets;
    target[offset + bucket] += mixed & 0x80000000 ? -featureWeight : featureWeight;
  };

  let whole = WHOLE_TOKEN_SEED;
  for (let start = 0; start < paddedLength; start++) {
    whole = Math.imul(whole ^ codeAt(token, start), FNV_PRIME);
    let hash = FNV_OFFSET;
    const end = Math.min(paddedLength, start + spec.maxN);
    for (let i = start; i < end; i++) {
      hash = Math.imul(hash ^ codeAt(token, i), FNV_PRIME);
      if (i - start + 1 >= spec.minN) emit(hash);
    }
  }
  emit(whole);
}

/** Adds one signed hashed feature for a whole token into `target[0, buckets)`. */
export function addWholeToken(token: string, weight: number, target: Float64Array, buckets: number): void {
  let hash = WHOLE_TOKEN_SEED;
  for (let i = 0; i < token.length; i++) hash = Math.imul(hash ^ token.charCodeAt(i), FNV_PRIME);
  const mixed = mix(hash);
  target[mixed % buckets] += mixed & 0x80000000 ? -weight : weight;
}
