/**
 * The per-row columns of a QuantisedRows, as views on its kernel's memory (valid until the
 * memory grows): what the bound needs (the codes' scale s; e + γ·‖v‖, which multiplies ‖q‖;
 * ‖v̂‖ without the exact component, which multiplies e_q; that component's dimension and
 * value) and the scan's scratch (integer dots, lower and upper bounds).
 */
export class QuantisedColumns {
  static readonly BYTES_PER_ROW = 6 * 8 + 2 * 4;
  readonly scale: Float64Array;
  readonly width: Float64Array;
  readonly codeNorm: Float64Array;
  readonly topValue: Float64Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
  readonly top: Int32Array;
  readonly dots: Int32Array;
  readonly at: Record<'scale' | 'width' | 'codeNorm' | 'topValue' | 'lower' | 'upper' | 'top' | 'dots', number>;

  constructor(buffer: ArrayBuffer, start: number, capacity: number) {
    const f64 = (i: number) => start + i * capacity * 8;
    const i32 = (i: number) => f64(6) + i * capacity * 4;
    this.at = { scale: f64(0), width: f64(1), codeNorm: f64(2), topValue: f64(3), lower: f64(4), upper: f64(5), top: i32(0), dots: i32(1) };
    this.scale = new Float64Array(buffer, this.at.scale, capacity);
    this.width = new Float64Array(buffer, this.at.width, capacity);
    this.codeNorm = new Float64Array(buffer, this.at.codeNorm, capacity);
    this.topValue = new Float64Array(buffer, this.at.topValue, capacity);
    this.lower = new Float64Array(buffer, this.at.lower, capacity);
    this.upper = new Float64Array(buffer, this.at.upper, capacity);
    this.top = new Int32Array(buffer, this.at.top, capacity);
    this.dots = new Int32Array(buffer, this.at.dots, capacity);
  }

  private get kept() {
    return [this.scale, this.width, this.codeNorm, this.topValue, this.top] as const;
  }

  /** A copy of the first n rows' bound columns (the memory is about to grow and the columns to move). */
  copy(n: number): (Float64Array | Int32Array)[] {
    return this.kept.map((column) => column.slice(0, n));
  }

  restore(copies: (Float64Array | Int32Array)[]): void {
    this.kept.forEach((column, i) => column.set(copies[i]));
  }

  move(from: number, to: number): void {
    for (const column of this.kept) column[to] = column[from];
  }
}
