import type { DotKernel } from './simd-kernel.js';
import { QuantisedColumns } from './quantised-columns.js';
import { collectAtLeast, kthLargest } from './top-k.js';
import { bounded, I8_MAX, quantiseRow } from './quantise-row.js';

const PAGE = 65_536;
const align = (n: number, to: number) => Math.ceil(n / to) * to;
/** Rows per block once a partition is that large (smaller ones are one block). */
const BLOCK_ROWS = 4096;
/**
 * Above this share of non-zero dimension pairs per row, rows are stored whole instead:
 * a query then touches most strips anyway, and the row kernel reads them faster
 * (384-dimensional sentence embeddings: 3.3 against 5.0 ms per 100k rows).
 */
const DENSE_PAIRS = 0.5;

/**
 * An int8 copy of a partition's vectors (a quarter of the float32 bytes), scanned
 * first to shortlist the rows that can reach the top k; only the shortlist is then
 * scored with the float kernel.
 *
 * Why the result stays exact. Row v keeps its largest component x_m exactly; the
 * rest is int8 codes c with a scale s, so v̂ = s·c (c_m = 0), with the error norm
 * e = ‖v − x_m·u_m − v̂‖ (u_m the m-th unit vector). The query becomes int16 codes with
 * scale t, q̂ = t·d, error e_q = ‖q − q̂‖. The estimate q̂·v̂ + q_m·x_m then satisfies
 *     q·v − (q̂·v̂ + q_m·x_m) = q·(v − x_m·u_m − v̂) + (q − q̂)·v̂,
 * so (Cauchy–Schwarz) it is off by at most ‖q‖·e + e_q·‖v̂‖.
 * The float kernel's score differs from the real q·v by at most γ·‖q‖·‖v‖ (float32
 * rounding over its sums), so every row's float score lies within
 *     w = ‖q‖·e + e_q·‖v̂‖ + γ·‖q‖·‖v‖ of the estimate.
 * Let T be the k-th largest lower bound: k rows score at least T. A row whose upper
 * bound is below T scores strictly less than each of them, so it cannot be in the
 * top k, not even on a tie. Rescoring every row with upper bound ≥ T with the same
 * float kernel therefore returns exactly the hits and scores of a full float scan.
 *
 * Layout. Codes are stored in blocks of rows; inside a block each pair of dimensions
 * is one strip holding the pair's codes row by row. The scan reads only the strips
 * where the query's codes are not zero (a quarter of them with the default embedder,
 * whose hashed features are sparse) and multiplies eight rows per SIMD step. The
 * integer sums are the same as over every dimension: the skipped terms are 0. When a
 * partition reaches its first full block and its rows turn out dense (most pairs not
 * zero, as with sentence-transformer embeddings), it stores each row's codes together
 * instead, which the row kernel scans faster when every strip would be read.
 */
export class QuantisedRows {
  private readonly kernel: DotKernel;
  /** Dimensions rounded up to whole pairs. */
  private readonly paired: number;
  /** Bytes per row in the row layout: zero-padded to 32, as the row kernel reads them. */
  private readonly rowStride: number;
  /** Where the float query is copied for the bound kernel (before it: the query's int16 codes, or its strips' offsets and packed codes). */
  private readonly queryAt: number;
  /** Where the codes start; after them, the per-row columns. */
  private readonly codesAt: number;
  /** Rows per block: the capacity while it is below BLOCK_ROWS. */
  private blockRows = 0;
  private rowLayout = false;
  /** Per dimension, its code's offset from the slot's first code. */
  private dimOffsets: Int32Array;
  /** Largest query code: keeps 127 × qMax × dimensions within an i32. */
  private readonly qMax: number;
  /** Relative bound on the float kernel's rounding error (see the constructor). */
  private readonly gamma: number;
  private capacity = 0;
  /** Per-row numbers, one column each in the kernel's memory after the codes. */
  private columns: QuantisedColumns;
  /** Rows holding NaN, ±Infinity or huge components: no bound holds for them, so the caller scans in float. */
  private unbounded = new Uint8Array(0);
  private unboundedRows = 0;

  constructor(
    makeKernel: () => DotKernel,
    private readonly dimensions: number,
    floatStride: number,
  ) {
    this.kernel = makeKernel();
    this.paired = align(dimensions, 2);
    this.rowStride = align(dimensions, 32);
    this.queryAt = align(Math.max(this.rowStride * 2, (this.paired / 2 + 3) * 8), 64);
    this.codesAt = align(this.queryAt + dimensions * 4, 64);
    this.dimOffsets = new Int32Array(dimensions);
    this.columns = new QuantisedColumns(this.kernel.memory.buffer, this.codesAt, 0);
    this.qMax = Math.min(32_767, Math.floor(0x7fffffff / (I8_MAX * this.paired)));
    // Each float score is a sum of (floatStride / 32 + 3) additions deep after one
    // multiplication; the standard bound is n·u/(1 − n·u) with u = 2^-24. Twice that,
    // plus slack for the float64 arithmetic of the bounds themselves.
    const depth = floatStride / 32 + 4;
    this.gamma = 2 * depth * 2 ** -24 + 1e-12;
  }

  get exact(): boolean {
    return this.unboundedRows === 0;
  }

  reserve(wanted: number): void {
    const capacity = wanted <= BLOCK_ROWS ? align(wanted, 16) : align(wanted, BLOCK_ROWS);
    if (capacity <= this.capacity) return;
    const needed = this.codesAt + capacity * (this.rowStride + QuantisedColumns.BYTES_PER_ROW);
    const have = this.kernel.memory.buffer.byteLength;
    const blockRows = Math.min(capacity, BLOCK_ROWS);
    // A small partition's one block gets taller as it grows: lay its rows out again, and at
    // the first full block choose between strips and whole rows (every slot is in use here:
    // the partition grows when it is full).
    const old = this.rowLayout || blockRows === this.blockRows ? null : this.readRows(this.capacity);
    const kept = this.columns.copy(this.capacity);
    if (needed > have) this.kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    if (!this.rowLayout && blockRows !== this.blockRows) {
      this.blockRows = blockRows;
      if (blockRows === BLOCK_ROWS && old && nonZeroPairShare(old, this.dimensions) > DENSE_PAIRS) this.rowLayout = true;
      this.dimOffsets = this.dimOffsets.map((_, d) => (this.rowLayout ? d : (d >> 1) * 2 * blockRows + (d & 1)));
    }
    if (old) for (let slot = 0; slot < this.capacity; slot++) this.setCodes(slot, old.subarray(slot * this.dimensions, (slot + 1) * this.dimensions));
    this.columns = new QuantisedColumns(this.kernel.memory.buffer, this.codesAt + capacity * this.rowStride, capacity);
    this.columns.restore(kept);
    const unbounded = new Uint8Array(capacity);
    unbounded.set(this.unbounded);
    this.unbounded = unbounded;
    this.capacity = capacity;
  }

  /** Byte address of dimension 0 of `slot`; dimension d is at + dimOffsets[d]. */
  private codeAt(slot: number): number {
    if (this.rowLayout) return this.codesAt + slot * this.rowStride;
    const rows = this.blockRows;
    const block = Math.floor(slot / rows);
    return this.codesAt + block * rows * this.paired + 2 * (slot - block * rows);
  }

  private setCodes(slot: number, codes: Int8Array): void {
    const bytes = new Int8Array(this.kernel.memory.buffer);
    const at = this.codeAt(slot);
    for (let d = 0; d < this.dimensions; d++) bytes[at + this.dimOffsets[d]] = codes[d];
  }

  private getCodes(slot: number, into: Int8Array): void {
    const bytes = new Int8Array(this.kernel.memory.buffer);
    const at = this.codeAt(slot);
    for (let d = 0; d < this.dimensions; d++) into[d] = bytes[at + this.dimOffsets[d]];
  }

  /** The codes of the first n slots, row after row. */
  private readRows(n: number): Int8Array {
    const rows = new Int8Array(n * this.dimensions);
    for (let slot = 0; slot < n; slot++) this.getCodes(slot, rows.subarray(slot * this.dimensions, (slot + 1) * this.dimensions));
    return rows;
  }

  /** Quantises `vector` (the row exactly as the float kernel holds it) into `slot` (see quantiseRow). */
  write(slot: number, vector: Float32Array): void {
    const codes = new Int8Array(this.dimensions);
    const row = quantiseRow(vector, this.dimensions, codes);
    const columns = this.columns;
    columns.scale[slot] = row.scale;
    columns.width[slot] = row.error + this.gamma * row.norm;
    columns.codeNorm[slot] = row.codeNorm;
    columns.top[slot] = row.top;
    columns.topValue[slot] = row.topValue;
    this.setCodes(slot, codes);
    this.setBounded(slot, row.bounded);
  }

  private setBounded(slot: number, ok: boolean): void {
    this.unboundedRows += (ok ? 0 : 1) - this.unbounded[slot];
    this.unbounded[slot] = ok ? 0 : 1;
  }

  /** Moves row `from` into `to` (deletion fills the hole with the last row) and frees `from`. */
  move(from: number, to: number): void {
    const codes = new Int8Array(this.dimensions);
    this.getCodes(from, codes);
    this.setCodes(to, codes);
    this.columns.move(from, to);
    this.setBounded(to, this.unbounded[from] === 0);
    this.free(from);
  }

  free(slot: number): void {
    this.setBounded(slot, true);
  }

  /**
   * Writes the query for the kernel as int16 codes: whole in the row layout, otherwise
   * the strips where its codes are not both zero (their offsets in a block and their
   * packed codes, padded to a multiple of four with zero strips). Returns the strip
   * count, the query's scale, norm and quantisation error, or null if a component is
   * not bounded.
   */
  private writeQuery(query: Float32Array): { strips: number; scale: number; norm: number; error: number } | null {
    let maxAbs = 0;
    for (let i = 0; i < this.dimensions; i++) {
      if (!bounded(query[i])) return null;
      maxAbs = Math.max(maxAbs, Math.abs(query[i]));
    }
    const scale = maxAbs / this.qMax;
    const codes = new Int32Array(this.paired);
    let norm = 0;
    let error = 0;
    for (let d = 0; d < this.dimensions && scale > 0; d++) {
      const x = query[d];
      codes[d] = Math.round(x / scale);
      norm += x * x;
      error += (x - scale * codes[d]) ** 2;
    }
    const strips = this.rowLayout ? this.writeRowQuery(codes) : this.writeStripQuery(codes);
    return { strips, scale, norm: Math.sqrt(norm), error: Math.sqrt(error) };
  }

  private writeRowQuery(codes: Int32Array): number {
    const target = new Int16Array(this.kernel.memory.buffer, 0, this.rowStride);
    target.fill(0);
    target.set(codes.subarray(0, this.dimensions));
    return 0;
  }

  private writeStripQuery(codes: Int32Array): number {
    const pairs = this.paired / 2 + 3;
    const offsets = new Int32Array(this.kernel.memory.buffer, 0, pairs);
    const packed = new Int32Array(this.kernel.memory.buffer, pairs * 4, pairs);
    let strips = 0;
    for (let d = 0; d < this.paired; d += 2) {
      if (codes[d] === 0 && codes[d + 1] === 0) continue;
      offsets[strips] = d * this.blockRows;
      packed[strips++] = (codes[d] & 0xffff) | (codes[d + 1] << 16);
    }
    while (strips % 4 !== 0) {
      offsets[strips] = 0;
      packed[strips++] = 0;
    }
    return strips;
  }

  /**
   * Writes into `into` the slots (of the first `count`) whose float score can reach the
   * top k, and returns how many; null when no exact bound is available (non-finite or huge values).
   */
  shortlist(query: Float32Array, count: number, k: number, into: Int32Array): number | null {
    if (!this.exact) return null;
    const q = this.writeQuery(query);
    if (!q) return null;
    const { kernel, columns } = this;
    if (this.rowLayout) {
      kernel.dotsI8(0, this.codesAt, count, this.rowStride, columns.at.dots);
    } else {
      const pairs = this.paired / 2 + 3;
      const blocks = Math.ceil(count / this.blockRows);
      kernel.dotsI8Pairs(0, pairs * 4, q.strips, this.codesAt, blocks, this.blockRows, this.paired, columns.at.dots);
    }
    new Float32Array(kernel.memory.buffer, this.queryAt, this.dimensions).set(query.subarray(0, this.dimensions));
    // Each row's estimate ± ‖q‖·(e + γ‖v‖) + e_q·‖v̂‖ (quantisation error on both sides plus
    // float32 rounding), with slack for the float64 arithmetic of the bounds themselves. The
    // exact component's product is exact in float64 (two float32 factors).
    const { at } = columns;
    kernel.bounds(count, at.dots, at.scale, at.width, at.codeNorm, at.topValue, at.top, this.queryAt, q.scale, q.norm * (1 + 1e-9), q.error * (1 + 1e-9), at.lower, at.upper);
    const threshold = kthLargest(columns.lower, count, k);
    return collectAtLeast(columns.upper, count, threshold, into);
  }
}

/** The share of dimension pairs (of rows stored one after another) holding a non-zero code. */
function nonZeroPairShare(rows: Int8Array, dimensions: number): number {
  let nonZero = 0;
  let pairs = 0;
  for (let row = 0; row < rows.length; row += dimensions) {
    for (let d = 0; d < dimensions; d += 2, pairs++) if (rows[row + d] !== 0 || (d + 1 < dimensions && rows[row + d + 1] !== 0)) nonZero++;
  }
  return pairs === 0 ? 0 : nonZero / pairs;
}
