import type { RowMeta } from './partition.js';
import type { VectorFilter } from './types.js';

const NONE = -1;
/** The number of a scope id that no row has. */
const ABSENT = -2;

/**
 * Scope ids (agents, users, runs) held once each, by number, and let go when no row uses them any more, so that an
 * erased user's id does not outlive its rows.
 */
class Names {
  private readonly numberOf = new Map<string, number>();
  private readonly names: (string | undefined)[] = [];
  private readonly uses: number[] = [];
  private readonly free: number[] = [];

  take(name: string | null): number {
    if (name === null) return NONE;
    let n = this.numberOf.get(name);
    if (n === undefined) {
      n = this.free.pop() ?? this.names.length;
      this.numberOf.set(name, n);
      this.names[n] = name;
      this.uses[n] = 0;
    }
    this.uses[n]++;
    return n;
  }

  release(n: number): void {
    if (n === NONE || --this.uses[n] > 0) return;
    this.numberOf.delete(this.names[n]!);
    this.names[n] = undefined;
    this.free.push(n);
  }

  /** The number of `name`; undefined when no row has it (a filter on it matches nothing). */
  find(name: string | null): number | undefined {
    return name === null ? NONE : this.numberOf.get(name);
  }

  name(n: number): string | null {
    return n === NONE ? null : this.names[n]!;
  }
}

function grown<T extends Int32Array | Float64Array>(array: T, size: number, make: (n: number) => T, fill: number): T {
  if (array.length >= size) return array;
  const next = make(Math.max(size, array.length * 2, 1024));
  next.fill(fill);
  next.set(array);
  return next;
}

/**
 * The rows of a graph partition, by slot (the row's place in its int8 codes), in typed arrays rather than an object
 * per row: a million rows' ids, scopes and keys take about half the heap that objects and maps of them did.
 * A row's key is its node in the graph, a new one for each version of the row.
 */
export class GraphRows {
  private ids: (string | undefined)[] = [];
  private readonly slotOfId = new Map<string, number>();
  private keys = new Int32Array(0);
  private revs = new Float64Array(0);
  private agents = new Int32Array(0);
  private users = new Int32Array(0);
  private runs = new Int32Array(0);
  /** Metadata terms of the few rows that have any. */
  private readonly terms = new Map<number, string[]>();
  /** The slot of each key (NONE once its row is gone): keys only grow, so this is an array. */
  private slotOfKey = new Int32Array(0);
  private readonly names = new Names();
  /** Slots per user number (NONE for rows without a user), and each slot's place in its user's list. */
  private readonly byUser = new Map<number, number[]>();
  private placeInUser = new Int32Array(0);

  get size(): number {
    return this.slotOfId.size;
  }

  slotOf(id: string): number | undefined {
    return this.slotOfId.get(id);
  }

  idOf(slot: number): string {
    return this.ids[slot]!;
  }

  keyOf(slot: number): number {
    return this.keys[slot];
  }

  revOf(slot: number): number | undefined {
    const rev = this.revs[slot];
    return Number.isNaN(rev) ? undefined : rev;
  }

  /** The slot of the row a graph key belongs to, if that row is still held. */
  slotOfKeyed(key: number): number | undefined {
    const slot = key < this.slotOfKey.length ? this.slotOfKey[key] : NONE;
    return slot === NONE ? undefined : slot;
  }

  add(meta: RowMeta, key: number, slot: number): void {
    this.reserve(slot + 1);
    this.slotOfKey = grown(this.slotOfKey, key + 1, (n) => new Int32Array(n), NONE);
    this.ids[slot] = meta.id;
    this.slotOfId.set(meta.id, slot);
    this.keys[slot] = key;
    this.revs[slot] = meta.rev ?? NaN;
    this.agents[slot] = this.names.take(meta.agentId);
    this.users[slot] = this.names.take(meta.userId);
    this.runs[slot] = this.names.take(meta.runId);
    if (meta.terms.length > 0) this.terms.set(slot, meta.terms);
    this.slotOfKey[key] = slot;
    let slots = this.byUser.get(this.users[slot]);
    if (!slots) this.byUser.set(this.users[slot], (slots = []));
    this.placeInUser[slot] = slots.length;
    slots.push(slot);
  }

  remove(slot: number): void {
    // The user's last slot takes the removed one's place.
    const slots = this.byUser.get(this.users[slot])!;
    const last = slots.pop()!;
    if (last !== slot) {
      slots[this.placeInUser[slot]] = last;
      this.placeInUser[last] = this.placeInUser[slot];
    }
    if (slots.length === 0) this.byUser.delete(this.users[slot]);
    this.slotOfId.delete(this.ids[slot]!);
    this.slotOfKey[this.keys[slot]] = NONE;
    for (const names of [this.agents, this.users, this.runs]) this.names.release(names[slot]);
    this.ids[slot] = undefined;
    this.terms.delete(slot);
  }

  meta(slot: number): RowMeta {
    return {
      id: this.ids[slot]!,
      agentId: this.names.name(this.agents[slot]),
      userId: this.names.name(this.users[slot]),
      runId: this.names.name(this.runs[slot]),
      terms: this.terms.get(slot) ?? [],
      rev: this.revOf(slot),
    };
  }

  /** Every held slot (in no particular order). */
  slots(): IterableIterator<number> {
    return this.slotOfId.values();
  }

  /** The slots of the rows in the filter's agent, user, run and metadata scope (the workspace is the partition's). */
  matching(filter: VectorFilter): number[] {
    // Undefined: any. A scope id no row has gets a number no row holds, so it matches nothing.
    const number = (name: string | null | undefined) => (name === undefined ? undefined : (this.names.find(name) ?? ABSENT));
    const agent = number(filter.agentId);
    const user = number(filter.userId);
    const run = number(filter.runId);
    const required = filter.metadataTerms ?? [];
    const candidates = user !== undefined ? (this.byUser.get(user) ?? []) : this.slots();
    const out: number[] = [];
    for (const slot of candidates) {
      if (agent !== undefined && this.agents[slot] !== agent) continue;
      if (run !== undefined && this.runs[slot] !== run) continue;
      if (required.length > 0) {
        const terms = this.terms.get(slot) ?? [];
        if (!required.every((t) => terms.includes(t))) continue;
      }
      out.push(slot);
    }
    return out;
  }

  private reserve(size: number): void {
    this.keys = grown(this.keys, size, (n) => new Int32Array(n), 0);
    this.revs = grown(this.revs, size, (n) => new Float64Array(n), NaN);
    this.agents = grown(this.agents, size, (n) => new Int32Array(n), NONE);
    this.users = grown(this.users, size, (n) => new Int32Array(n), NONE);
    this.runs = grown(this.runs, size, (n) => new Int32Array(n), NONE);
    this.placeInUser = grown(this.placeInUser, size, (n) => new Int32Array(n), 0);
  }
}
