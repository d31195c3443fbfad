import { normalizeInPlace } from './vector-math.js';

/**
 * One L2-normalised vector per text from a transformer's output: `[rows, tokens, hidden]` token states
 * are pooled over each row's first `lengths[row]` tokens (the rest is padding), by their mean or by
 * the first ([CLS]) token; a `[rows, hidden]` output is already one vector per text.
 */
export function poolTokens(data: Float32Array, dims: readonly number[], lengths: number[], pooling: 'mean' | 'cls'): Float32Array[] {
  if (dims.length === 2) {
    const [rows, hidden] = dims;
    return Array.from({ length: rows }, (_, row) => unit(data.slice(row * hidden, (row + 1) * hidden)));
  }
  if (dims.length !== 3) throw new Error(`Expected token states of shape [rows, tokens, hidden], got [${dims.join(', ')}]`);
  const [rows, tokens, hidden] = dims;
  return Array.from({ length: rows }, (_, row) => {
    const first = row * tokens * hidden;
    if (pooling === 'cls') return unit(data.slice(first, first + hidden));
    const sum = new Float32Array(hidden);
    const count = lengths[row];
    for (let t = 0; t < count; t++) {
      const offset = first + t * hidden;
      for (let h = 0; h < hidden; h++) sum[h] += data[offset + h];
    }
    return unit(sum);
  });
}

function unit(vector: Float32Array): Float32Array {
  normalizeInPlace(vector);
  return vector;
}
