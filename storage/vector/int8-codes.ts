import { kthLargest } from './top-k.js';
import { quantiseRow } from './quantise-row.js';

/** Rows per block: blocks are allocated as the store grows, so it never copies what it holds. */
const BLOCK_ROWS = 4096;
/** Slack on every bound for the float64 arithmetic of the estimates and of the exact rescoring. */
const SLACK = 1e-9;

/**
 * Int8 codes of vectors whose float32 rows live elsewhere (on disk), to tell which rows of a
 * set can reach its top k before any float row is read.
 *
 * Each row keeps its largest component x_m exactly and the rest as codes c with scale s
 * (v̂ = s·c, c_m = 0, quantiseRow), with the error norm e = ‖v − x_m·u_m − v̂‖. For a query q the estimate
 * q·v̂ + q_m·x_m (float64) is within ‖q‖·e of q·v (Cauchy–Schwarz). So with T the k-th
 * largest lower bound, a row whose upper bound is below T cannot be in the top k, and
 * rescoring the others exactly returns exactly the top k of the whole set.
 */
export class Int8Codes {
  private readonly blocks: Int8Array[] = [];
  private scale = new Float64Array(0);
  private error = new Float64Array(0);
  private top = new Int32Array(0);
  private topValue = new Float64Array(0);
  private readonly free: number[] = [];
  private used = 0;

  constructor(readonly dimensions: number) {}

  /** Stores the codes of `vector` and returns its slot. */
  add(vector: Float32Array): number {
    const slot = this.free.pop() ?? this.used++;
    this.reserve(slot + 1);
    const row = quantiseRow(vector, this.dimensions, this.codesOf(slot));
    this.scale[slot] = row.scale;
    // No bound holds for NaN, infinite or huge components: such a row is always rescored.
    this.error[slot] = row.bounded ? row.error : Infinity;
    this.top[slot] = row.top;
    this.topValue[slot] = row.topValue;
    return slot;
  }

  /** Frees the slot; its codes are zeroed (an erased row leaves nothing in memory or in a snapshot). */
  remove(slot: number): void {
    this.codesOf(slot).fill(0);
    this.free.push(slot);
  }

  /** What `Int8Codes.restore` needs: the slot counts and the bytes of the codes and per-row numbers. */
  snapshot(): { used: number; free: number[]; parts: Uint8Array[] } {
    const rows = this.used;
    const parts: Uint8Array[] = [];
    for (let at = 0; at < rows; at += BLOCK_ROWS) {
      const block = this.blocks[at / BLOCK_ROWS];
      parts.push(new Uint8Array(block.buffer, block.byteOffset, Math.min(BLOCK_ROWS, rows - at) * this.dimensions));
    }
    for (const column of [this.scale, this.error, this.top, this.topValue]) parts.push(new Uint8Array(column.buffer, 0, rows * column.BYTES_PER_ELEMENT));
    return { used: rows, free: [...this.free], parts };
  }

  static restore(dimensions: number, used: number, free: number[], bytes: Uint8Array): Int8Codes {
    const codes = new Int8Codes(dimensions);
    codes.reserve(used);
    codes.used = used;
    codes.free.push(...free);
    let at = 0;
    const take = (n: number) => bytes.subarray(at, (at += n));
    for (let row = 0; row < used; row += BLOCK_ROWS) {
      const n = Math.min(BLOCK_ROWS, used - row) * dimensions;
      new Uint8Array(codes.blocks[row / BLOCK_ROWS].buffer, 0, n).set(take(n));
    }
    for (const column of [codes.scale, codes.error, codes.top, codes.topValue]) {
      new Uint8Array(column.buffer, 0, used * column.BYTES_PER_ELEMENT).set(take(used * column.BYTES_PER_ELEMENT));
    }
    if (at !== bytes.length) throw new Error(`int8 codes snapshot: ${bytes.length} bytes, expected ${at}`);
    return codes;
  }

  /**
   * The slots (of `slots`) that can be among the k best for `query`: those whose upper bound
   * reaches the k-th largest lower bound. Assumes finite vectors (the caller rescoring them exactly).
   */
  shortlist(query: Float32Array, slots: number[], k: number): number[] {
    if (slots.length <= k) return slots;
    let norm = 0;
    for (let i = 0; i < this.dimensions; i++) norm += (query[i] ?? 0) ** 2;
    norm = Math.sqrt(norm);
    if (!Number.isFinite(norm)) return slots;
    // Only the query's non-zero dimensions count: the lexical part of the default embedder's queries is sparse.
    const at: number[] = [];
    for (let i = 0; i < this.dimensions; i++) if (query[i] !== 0) at.push(i);
    const dims = Int32Array.from(at);
    const values = Float64Array.from(at, (i) => query[i]);
    const estimate = new Float64Array(slots.length);
    const lower = new Float64Array(slots.length);
    for (let j = 0; j < slots.length; j++) {
      const slot = slots[j];
      estimate[j] = dot(dims, values, this.codesOf(slot)) * this.scale[slot] + query[this.top[slot]] * this.topValue[slot];
      lower[j] = estimate[j] - norm * this.error[slot] - SLACK;
    }
    const threshold = kthLargest(lower, slots.length, k);
    return slots.filter((slot, j) => estimate[j] + norm * this.error[slot] + SLACK >= threshold);
  }

  private codesOf(slot: number): Int8Array {
    const block = this.blocks[Math.floor(slot / BLOCK_ROWS)];
    const at = (slot % BLOCK_ROWS) * this.dimensions;
    return block.subarray(at, at + this.dimensions);
  }

  private reserve(rows: number): void {
    while (this.blocks.length * BLOCK_ROWS < rows) this.blocks.push(new Int8Array(BLOCK_ROWS * this.dimensions));
    const capacity = this.blocks.length * BLOCK_ROWS;
    if (this.scale.length >= capacity) return;
    const grow = <T extends Float64Array | Int32Array>(old: T, make: (n: number) => T) => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.scale = grow(this.scale, (n) => new Float64Array(n));
    this.error = grow(this.error, (n) => new Float64Array(n));
    this.top = grow(this.top, (n) => new Int32Array(n));
    this.topValue = grow(this.topValue, (n) => new Float64Array(n));
  }
}

/** The dot product of a row's codes with the query's values at dimensions `dims`. */
function dot(dims: Int32Array, values: Float64Array, codes: Int8Array): number {
  let sum = 0;
  for (let i = 0; i < dims.length; i++) sum += values[i] * codes[dims[i]];
  return sum;
}
