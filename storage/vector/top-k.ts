// Each scan loop is a function of its own: V8 compiles a long loop on the fly (OSR) and leaves
// that code at the first line after the loop it has not seen run, so code following a long loop
// in the same function ran deoptimised on every call (a third of the quantised scan's time).

/** The k-th largest of the first `count` values (−Infinity when there are fewer than k). */
export function kthLargest(values: Float64Array, count: number, k: number): number {
  const best = new KthLargest(k);
  let threshold = best.value;
  for (let i = 0; i < count; i++) {
    // Most values fall below the k-th best so far: skip the heap for them.
    if (values[i] > threshold) {
      best.offer(values[i]);
      threshold = best.value;
    }
  }
  return threshold;
}

/** Writes into `into` the indexes of the first `count` values that are at least `threshold`. */
export function collectAtLeast(values: Float64Array, count: number, threshold: number, into: Int32Array): number {
  let n = 0;
  for (let i = 0; i < count; i++) if (values[i] >= threshold) into[n++] = i;
  return n;
}

/** The k-th largest of the numbers offered (−Infinity until k were offered): a min-heap of size k. */
export class KthLargest {
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
