export const I8_MAX = 127;
/** Larger components could overflow float32 sums, where the rounding bounds no longer hold. */
const LIMIT = 1e15;
export const bounded = (x: number) => Math.abs(x) <= LIMIT; // false for NaN and ±Infinity

/** One row's int8 codes beside the numbers that bound its dot products (see QuantisedRows). */
export interface QuantisedRow {
  /** Code scale s: the row is x_top·u_top + s·codes, up to `error`. */
  scale: number;
  /** The largest component, kept exactly (its code is 0). */
  top: number;
  topValue: number;
  /** ‖v − x_top·u_top − s·codes‖. */
  error: number;
  /** ‖s·codes‖. */
  codeNorm: number;
  /** ‖v‖. */
  norm: number;
  /** False when a component is NaN, infinite or huge: no bound holds, and the other fields are 0. */
  bounded: boolean;
}

/**
 * Writes the int8 codes of the first `dimensions` components of `vector` into `codes`. Its
 * largest component is kept exactly beside the codes: with the default embedder one dimension
 * dominates every row, and leaving it out of the int8 step makes that step, and so the error
 * bound, several times smaller.
 */
export function quantiseRow(vector: ArrayLike<number>, dimensions: number, codes: Int8Array): QuantisedRow {
  codes.fill(0);
  let top = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = vector[i] ?? 0;
    if (!bounded(x)) return { scale: 0, top: 0, topValue: 0, error: 0, codeNorm: 0, norm: 0, bounded: false };
    if (Math.abs(x) > Math.abs(vector[top] ?? 0)) top = i;
  }
  let rest = 0;
  for (let i = 0; i < dimensions; i++) if (i !== top) rest = Math.max(rest, Math.abs(vector[i] ?? 0));
  const scale = rest / I8_MAX;
  let error = 0;
  let codeNorm = 0;
  let norm = 0;
  for (let i = 0; i < dimensions; i++) {
    const x = vector[i] ?? 0;
    norm += x * x;
    if (i === top || scale === 0) continue;
    const c = Math.max(-I8_MAX, Math.min(I8_MAX, Math.round(x / scale)));
    codes[i] = c;
    const approx = scale * c;
    error += (x - approx) ** 2;
    codeNorm += approx * approx;
  }
  return { scale, top, topValue: vector[top] ?? 0, error: Math.sqrt(error), codeNorm: Math.sqrt(codeNorm), norm: Math.sqrt(norm), bounded: true };
}
