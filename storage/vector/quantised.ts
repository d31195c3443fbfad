import type { DotKernel } from './simd-kernel.js';

const PAGE = 65_536;
const align = (n: number, to: number) => Math.ceil(n / to) * to;
const I8_MAX = 127;
/** Numbers per row in `stats`. */
const STATS = 5;
/** Larger components could overflow float32 sums, where the rounding bound no longer holds. */
const LIMIT = 1e15;
const bounded = (x: number) => Math.abs(x) <= LIMIT; // false for NaN and ±Infinity

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
 */
export class QuantisedRows {
  private readonly kernel: DotKernel;
  /** Bytes per row of codes: zero-padded to 32, as the kernel reads them. */
  private readonly stride: number;
  private readonly codesAt: number;
  /** Largest query code: keeps 127 × qMax × stride within an i32. */
  private readonly qMax: number;
  /** Relative bound on the float kernel's rounding error (see the constructor). */
  private readonly gamma: number;
  private capacity = 0;
  /**
   * Per row: the scale s; e + γ·‖v‖, which multiplies ‖q‖ in the bound; ‖v̂‖ without the
   * exact component, which multiplies e_q (see shortlist); that component's index and value.
   */
  private stats = new Float64Array(0);
  private upper = new Float64Array(0);
  /** Rows holding NaN, ±Infinity or huge components: no bound holds for them, so the caller scans in float. */
  private unbounded = new Uint8Array(0);
  private unboundedRows = 0;

  constructor(
    makeKernel: () => DotKernel,
    private readonly dimensions: number,
    floatStride: number,
  ) {
    this.kernel = makeKernel();
    this.stride = align(dimensions, 32);
    this.codesAt = align(this.stride * 2, 64);
    this.qMax = Math.min(32_767, Math.floor(0x7fffffff / (I8_MAX * this.stride)));
    // Each float score is a sum of (floatStride / 32 + 3) additions deep after one
    // multiplication; the standard bound is n·u/(1 − n·u) with u = 2^-24. Twice that,
    // plus slack for the float64 arithmetic of the bounds themselves.
    const depth = floatStride / 32 + 4;
    this.gamma = 2 * depth * 2 ** -24 + 1e-12;
  }

  get exact(): boolean {
    return this.unboundedRows === 0;
  }

  private get outAt(): number {
    return this.codesAt + this.capacity * this.stride;
  }

  reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    const needed = this.codesAt + capacity * (this.stride + 4);
    const have = this.kernel.memory.buffer.byteLength;
    if (needed > have) this.kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    const grow = <T extends Float64Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old);
      return next;
    };
    this.stats = grow(this.stats, () => new Float64Array(capacity * STATS));
    this.unbounded = grow(this.unbounded, (n) => new Uint8Array(n));
    this.upper = new Float64Array(capacity);
    this.capacity = capacity;
  }

  private codes(slot: number): Int8Array {
    return new Int8Array(this.kernel.memory.buffer, this.codesAt + slot * this.stride, this.stride);
  }

  /**
   * Quantises `vector` (the row exactly as the float kernel holds it) into `slot`. Its
   * largest component is kept exactly beside the codes (its code is 0): with the
   * default embedder one dimension dominates every row, and leaving it out of the int8
   * step makes that step, and so the error bound, several times smaller.
   */
  write(slot: number, vector: Float32Array): void {
    const codes = this.codes(slot);
    codes.fill(0);
    let ok = true;
    let top = 0;
    for (let i = 0; i < this.dimensions; i++) {
      if (!bounded(vector[i])) ok = false;
      else if (Math.abs(vector[i]) > Math.abs(vector[top])) top = i;
    }
    let rest = 0;
    for (let i = 0; i < this.dimensions && ok; i++) if (i !== top) rest = Math.max(rest, Math.abs(vector[i]));
    const s = rest / I8_MAX;
    let error = 0;
    let codeNorm = 0;
    let norm = 0;
    for (let i = 0; i < this.dimensions && ok; i++) {
      const x = vector[i];
      norm += x * x;
      if (i === top || s === 0) continue;
      const c = Math.max(-I8_MAX, Math.min(I8_MAX, Math.round(x / s)));
      codes[i] = c;
      const approx = s * c;
      error += (x - approx) ** 2;
      codeNorm += approx * approx;
    }
    const at = slot * STATS;
    this.stats[at] = s;
    this.stats[at + 1] = Math.sqrt(error) + this.gamma * Math.sqrt(norm);
    this.stats[at + 2] = Math.sqrt(codeNorm);
    this.stats[at + 3] = top;
    this.stats[at + 4] = ok ? vector[top] : 0;
    this.setBounded(slot, ok);
  }

  private setBounded(slot: number, ok: boolean): void {
    this.unboundedRows += (ok ? 0 : 1) - this.unbounded[slot];
    this.unbounded[slot] = ok ? 0 : 1;
  }

  /** Moves row `from` into `to` (deletion fills the hole with the last row) and frees `from`. */
  move(from: number, to: number): void {
    this.codes(to).set(this.codes(from));
    this.stats.copyWithin(to * STATS, from * STATS, (from + 1) * STATS);
    this.setBounded(to, this.unbounded[from] === 0);
    this.free(from);
  }

  free(slot: number): void {
    this.setBounded(slot, true);
  }

  /** Writes the query as int16 codes; returns its scale, norm and quantisation error, or null if a component is not bounded. */
  private writeQuery(query: Float32Array): { scale: number; norm: number; error: number } | null {
    let maxAbs = 0;
    for (let i = 0; i < this.dimensions; i++) {
      if (!bounded(query[i])) return null;
      maxAbs = Math.max(maxAbs, Math.abs(query[i]));
    }
    const codes = new Int16Array(this.kernel.memory.buffer, 0, this.stride);
    codes.fill(0);
    const scale = maxAbs / this.qMax;
    let norm = 0;
    let error = 0;
    for (let i = 0; i < this.dimensions && scale > 0; i++) {
      const x = query[i];
      const c = Math.round(x / scale);
      codes[i] = c;
      norm += x * x;
      error += (x - scale * c) ** 2;
    }
    return { scale, norm: Math.sqrt(norm), error: Math.sqrt(error) };
  }

  /**
   * Writes into `into` the slots (of the first `count`) whose float score can reach the
   * top k, and returns how many; null when no exact bound is available (non-finite or huge values).
   */
  shortlist(query: Float32Array, count: number, k: number, into: Int32Array): number | null {
    if (!this.exact) return null;
    const q = this.writeQuery(query);
    if (!q) return null;
    this.kernel.dotsI8(0, this.codesAt, count, this.stride, this.outAt);
    const dots = new Int32Array(this.kernel.memory.buffer, this.outAt, count);
    const { stats, upper } = this;
    const best = new KthLargest(k);
    let threshold = best.value;
    // Slack for the float64 arithmetic of the bounds themselves.
    const normQ = q.norm * (1 + 1e-9);
    const errorQ = q.error * (1 + 1e-9);
    for (let i = 0, at = 0; i < count; i++, at += STATS) {
      // The exact component's product is exact in float64 (two float32 factors).
      const approx = q.scale * stats[at] * dots[i] + query[stats[at + 3]] * stats[at + 4];
      // ‖q‖·(e + γ‖v‖) + e_q·‖v̂‖: quantisation error on both sides plus float32 rounding.
      const width = normQ * stats[at + 1] + errorQ * stats[at + 2] + 1e-37;
      upper[i] = approx + width;
      // Most rows fall below the k-th best lower bound so far: skip the heap for them.
      if (approx - width > threshold) {
        best.offer(approx - width);
        threshold = best.value;
      }
    }
    let n = 0;
    for (let i = 0; i < count; i++) if (upper[i] >= threshold) into[n++] = i;
    return n;
  }
}

/** The k-th largest of the numbers offered (−Infinity until k were offered): a min-heap of size k. */
class KthLargest {
  private readonly heap: Float64Array;
  private size = 0;

  constructor(private readonly k: number) {
    this.heap = new Float64Array(k);
  }

  get value(): number {
    return this.size < this.k ? -Infinity : this.heap[0];
  }

  offer(x: number): void {
    const h = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (h[parent] <= x) break;
        h[i] = h[parent];
        i = parent;
      }
      h[i] = x;
      return;
    }
    if (x <= h[0]) return;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.k) break;
      if (child + 1 < this.k && h[child + 1] < h[child]) child++;
      if (h[child] >= x) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = x;
  }
}
