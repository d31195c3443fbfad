import type { DotKernel } from './simd-kernel.js';
import { QuantisedRows } from './quantised.js';
import { compareHits, coversWholeWorkspace, type VectorFilter, type VectorHit } from './types.js';

export interface RowMeta {
  id: string;
  agentId: string | null;
  userId: string | null;
  runId: string | null;
  terms: string[];
  /** The write's revision, where known: a row seen again at the same revision is already held. */
  rev?: number;
}

/** Whether a row of the workspace is in the filter's agent, run and metadata scope (the user is looked up by the caller). */
export function matchesScope(meta: RowMeta, filter: VectorFilter): boolean {
  if (filter.agentId !== undefined && meta.agentId !== filter.agentId) return false;
  if (filter.runId !== undefined && meta.runId !== filter.runId) return false;
  if (filter.metadataTerms?.length && !filter.metadataTerms.every((t) => meta.terms.includes(t))) return false;
  return true;
}

/** A partition's row ids per user, so that one user's search reads only that user's rows. */
export class RowsByUser {
  private readonly ids = new Map<string | null, Set<string>>();

  add(meta: Pick<RowMeta, 'id' | 'userId'>): void {
    let ids = this.ids.get(meta.userId);
    if (!ids) this.ids.set(meta.userId, (ids = new Set()));
    ids.add(meta.id);
  }

  remove(meta: Pick<RowMeta, 'id' | 'userId'>): void {
    const ids = this.ids.get(meta.userId);
    ids?.delete(meta.id);
    if (ids?.size === 0) this.ids.delete(meta.userId);
  }

  of(userId: string | null): Iterable<string> {
    return this.ids.get(userId) ?? [];
  }
}

const PAGE = 65_536;
const align = (n: number, to: number) => Math.ceil(n / to) * to;

/**
 * One workspace's vectors in a WebAssembly linear memory, scanned exactly with
 * the SIMD kernel. Layout: [query | vectors (capacity × stride) | scores | slot list].
 * Slots are dense: deleting moves the last vector into the hole. Workspace-wide
 * searches first scan an int8 copy (QuantisedRows) and rescore its shortlist here,
 * which returns the same hits and scores as scanning every float row.
 */
export class VectorPartition {
  private readonly kernel: DotKernel;
  private readonly quantised: QuantisedRows;
  private readonly stride: number;
  private readonly vectorsAt: number;
  private capacity = 0;
  private count = 0;
  private readonly rows: RowMeta[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly byUser = new RowsByUser();

  constructor(
    makeKernel: () => DotKernel,
    readonly dimensions: number,
  ) {
    this.kernel = makeKernel();
    // Zero-padded to whole groups of eight floats, as the kernel reads them.
    this.stride = align(dimensions, 8) * 4;
    this.vectorsAt = align(this.stride, 64);
    this.quantised = new QuantisedRows(makeKernel, dimensions, this.stride);
    this.reserve(256);
  }

  get size(): number {
    return this.count;
  }

  private get scoresAt(): number {
    return this.vectorsAt + this.capacity * this.stride;
  }

  private get slotsAt(): number {
    return this.scoresAt + this.capacity * 4;
  }

  private reserve(capacity: number): void {
    if (capacity <= this.capacity) return;
    const next = Math.max(capacity, this.capacity * 2);
    const needed = this.vectorsAt + next * (this.stride + 8);
    const have = this.kernel.memory.buffer.byteLength;
    if (needed > have) this.kernel.memory.grow(Math.ceil((needed - have) / PAGE));
    this.quantised.reserve(next);
    this.capacity = next;
  }

  private floats(at: number, length: number): Float32Array {
    return new Float32Array(this.kernel.memory.buffer, at, length);
  }

  private writeVector(slot: number, vector: Float32Array): void {
    const target = this.floats(this.vectorsAt + slot * this.stride, this.stride / 4);
    target.fill(0);
    target.set(vector.length > this.dimensions ? vector.subarray(0, this.dimensions) : vector);
    this.quantised.write(slot, target);
  }

  put(meta: RowMeta, vector: Float32Array): void {
    const existing = this.slotOf.get(meta.id);
    if (existing !== undefined) {
      this.byUser.remove(this.rows[existing]);
      this.rows[existing] = meta;
      this.byUser.add(meta);
      this.writeVector(existing, vector);
      return;
    }
    this.reserve(this.count + 1);
    const slot = this.count++;
    this.rows[slot] = meta;
    this.slotOf.set(meta.id, slot);
    this.byUser.add(meta);
    this.writeVector(slot, vector);
  }

  delete(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.byUser.remove(this.rows[slot]);
    this.slotOf.delete(id);
    const last = --this.count;
    if (slot !== last) {
      const moved = this.rows[last];
      this.rows[slot] = moved;
      this.slotOf.set(moved.id, slot);
      const bytes = new Uint8Array(this.kernel.memory.buffer);
      const from = this.vectorsAt + last * this.stride;
      bytes.copyWithin(this.vectorsAt + slot * this.stride, from, from + this.stride);
      this.quantised.move(last, slot);
    } else {
      this.quantised.free(last);
    }
    this.rows.length = this.count;
  }

  search(query: Float32Array, filter: VectorFilter, k: number): VectorHit[] {
    if (this.count === 0 || k <= 0) return [];
    const unfiltered = coversWholeWorkspace(filter);
    const q = this.floats(0, this.stride / 4);
    q.fill(0);
    q.set(query.length > this.dimensions ? query.subarray(0, this.dimensions) : query);

    const slots = this.slotList();
    if (unfiltered) {
      const n = this.count > k ? this.quantised.shortlist(q, this.count, k, slots) : null;
      if (n === null) {
        this.kernel.dots(0, this.vectorsAt, this.count, this.stride, this.scoresAt);
        return this.best(this.count, null, k);
      }
      return this.scoreSlots(n, k);
    }
    let n = 0;
    const consider = (slot: number) => {
      if (matchesScope(this.rows[slot], filter)) slots[n++] = slot;
    };
    if (filter.userId !== undefined) for (const id of this.byUser.of(filter.userId)) consider(this.slotOf.get(id)!);
    else for (let slot = 0; slot < this.count; slot++) consider(slot);
    return n === 0 ? [] : this.scoreSlots(n, k);
  }

  private slotList(): Int32Array {
    return new Int32Array(this.kernel.memory.buffer, this.slotsAt, this.capacity);
  }

  /** Float scores for the first n slots of the slot list, and the best k of them. */
  private scoreSlots(n: number, k: number): VectorHit[] {
    this.kernel.dotsAt(0, this.vectorsAt, this.slotsAt, n, this.stride, this.scoresAt);
    return this.best(n, this.slotList(), k);
  }

  /** The best k of n computed scores (of slots[i], or of row i without a slot list). */
  private best(n: number, slots: Int32Array | null, k: number): VectorHit[] {
    const scores = this.floats(this.scoresAt, n);
    // Keep the best k in a small sorted array; the threshold skips almost every row.
    const top: VectorHit[] = [];
    let threshold = -Infinity;
    for (let i = 0; i < n; i++) {
      const score = scores[i];
      if (score < threshold) continue;
      const hit = { id: this.rows[slots ? slots[i] : i].id, score };
      if (top.length === k && compareHits(hit, top[k - 1]) >= 0) continue;
      let at = top.length;
      while (at > 0 && compareHits(hit, top[at - 1]) < 0) at--;
      top.splice(at, 0, hit);
      if (top.length > k) top.pop();
      if (top.length === k) threshold = top[k - 1].score;
    }
    return top;
  }
}
