import usearch from 'usearch';
import type { RowMeta } from './partition.js';
import { GraphRows } from './graph-rows.js';
import { Int8Codes } from './int8-codes.js';
import { compareHits, coversWholeWorkspace, type VectorFilter, type VectorHit } from './types.js';

/** Reads rows' float vectors from where they are persisted (the float copy is not kept in memory at this size). */
export type FloatRows = (ids: string[]) => Map<string, Float32Array>;

/**
 * HNSW parameters: 32 links per node, 128 candidates while linking a node, 512 while searching
 * (recall@10 0.95–0.98 on bench/retrieval.ts's memories, where many rows differ by one word).
 */
const CONNECTIVITY = 32;
const EXPANSION_ADD = 128;
const EXPANSION_SEARCH = 512;
/** Rows linked per native call: the call holds the event loop (about 0.25 ms per row on two cores). */
const ADD_BATCH = 256;
/** Graph candidates taken per wanted hit (and at least MIN_CANDIDATES), narrowed by their int8 codes, then rescored exactly. */
const OVERSAMPLE = 4;
const MIN_CANDIDATES = 128;
/** A filtered search scores every matching row exactly while there are at most this many. */
const EXACT_FILTERED_MAX = 20_000;

/** A partition's files and the numbers that tie them together (see GraphSnapshots). */
export interface GraphFiles {
  graph: string;
  codes: string;
  rows: string;
}

interface GraphHeader {
  dimensions: number;
  nextKey: number;
  codes: { used: number; free: number[] };
}

/**
 * One large workspace's vectors as an HNSW graph of int8 codes (usearch), for workspaces
 * too large to scan exactly in time or to hold in float32 (a million 1,025-dimension rows
 * are 4 GB). A workspace-wide search takes the graph's best candidates and rescores them
 * with their float vectors, so scores are exact and the hits are the graph's recall of the
 * exact ones (bench/retrieval.ts reports it). A filtered search (one user, agent, run or
 * metadata) ranks all its matching rows exactly when there are few, as one user's are.
 * Both read float rows only for the candidates whose int8 codes say they can reach the top k.
 */
export class GraphPartition {
  private readonly graph: InstanceType<typeof usearch.Index>;
  private readonly rows = new GraphRows();
  private readonly codes: Int8Codes;
  /** Rows put but not yet linked into the graph (linked in batches, and before any search). */
  private pending = new Map<number, Float32Array>();
  private nextKey = 1;
  /** Rows taken out of the graph: their nodes keep their codes in it until it is built again, so it is not saved. */
  private removals = 0;

  constructor(
    readonly dimensions: number,
    private readonly floatsOf: FloatRows,
    codes?: Int8Codes,
  ) {
    this.codes = codes ?? new Int8Codes(dimensions);
    this.graph = new usearch.Index({
      dimensions,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.I8,
      connectivity: CONNECTIVITY,
      expansion_add: EXPANSION_ADD,
      expansion_search: EXPANSION_SEARCH,
      multi: false,
    });
  }

  get size(): number {
    return this.rows.size;
  }

  has(id: string): boolean {
    return this.rows.slotOf(id) !== undefined;
  }

  put(meta: RowMeta, vector: Float32Array): void {
    const existing = this.rows.slotOf(meta.id);
    if (existing !== undefined) {
      if (meta.rev !== undefined && this.rows.revOf(existing) === meta.rev) return;
      this.unlink(existing);
    }
    const key = this.nextKey++;
    const fit = fitted(vector, this.dimensions);
    this.rows.add(meta, key, this.codes.add(fit));
    this.pending.set(key, fit);
    if (this.pending.size >= ADD_BATCH) this.link();
  }

  delete(id: string): void {
    const slot = this.rows.slotOf(id);
    if (slot !== undefined) this.unlink(slot);
  }

  private unlink(slot: number): void {
    const key = this.rows.keyOf(slot);
    this.rows.remove(slot);
    this.codes.remove(slot);
    if (!this.pending.delete(key)) {
      this.graph.remove(BigInt(key));
      this.removals++;
    }
  }

  /** Whether the graph holds no trace of a removed row (only then may it be written to disk). */
  get clean(): boolean {
    return this.removals === 0;
  }

  /** Writes the partition into `files` (a clean one only: see `clean`). */
  save(files: GraphFiles, write: (path: string, parts: Uint8Array[]) => void): void {
    if (!this.clean) throw new Error('a graph with removed rows is not saved');
    this.link();
    this.graph.save(files.graph);
    const codes = this.codes.snapshot();
    write(files.codes, codes.parts);
    const header: GraphHeader = { dimensions: this.dimensions, nextKey: this.nextKey, codes: { used: codes.used, free: codes.free } };
    const rows = [...this.rows.slots()].map((slot) => {
      const r = this.rows.meta(slot);
      return [r.id, this.rows.keyOf(slot), slot, r.rev ?? null, r.agentId, r.userId, r.runId, r.terms];
    });
    write(files.rows, [Buffer.from(JSON.stringify({ header, rows }))]);
  }

  /** A partition as `save` left it. */
  static restore(files: GraphFiles, read: (path: string) => Buffer, floatsOf: FloatRows): GraphPartition {
    const { header, rows } = JSON.parse(read(files.rows).toString('utf8')) as {
      header: GraphHeader;
      rows: [string, number, number, number | null, string | null, string | null, string | null, string[]][];
    };
    const codes = Int8Codes.restore(header.dimensions, header.codes.used, header.codes.free, read(files.codes));
    const partition = new GraphPartition(header.dimensions, floatsOf, codes);
    partition.graph.load(files.graph);
    partition.nextKey = header.nextKey;
    for (const [id, key, slot, rev, agentId, userId, runId, terms] of rows) {
      partition.rows.add({ id, rev: rev ?? undefined, agentId, userId, runId, terms }, key, slot);
    }
    if (partition.graph.size() !== partition.rows.size) throw new Error(`graph snapshot: ${partition.graph.size()} nodes for ${partition.rows.size} rows`);
    return partition;
  }

  /** Links the pending rows into the graph. */
  private link(): void {
    const entries = [...this.pending];
    this.pending = new Map();
    for (let at = 0; at < entries.length; at += ADD_BATCH) {
      const batch = entries.slice(at, at + ADD_BATCH);
      const keys = BigUint64Array.from(batch, ([key]) => BigInt(key));
      const vectors = new Float32Array(batch.length * this.dimensions);
      batch.forEach(([, vector], i) => vectors.set(vector, i * this.dimensions));
      this.graph.add(keys, vectors, 0);
    }
  }

  search(query: Float32Array, filter: VectorFilter, k: number): VectorHit[] {
    if (this.rows.size === 0 || k <= 0) return [];
    this.link();
    const q = fitted(query, this.dimensions);
    if (coversWholeWorkspace(filter)) return this.rescore(q, this.candidates(q, Math.max(k * OVERSAMPLE, MIN_CANDIDATES)), k);
    const matching = this.rows.matching(filter);
    if (matching.length <= EXACT_FILTERED_MAX) return this.rescore(q, matching, k);
    // Many matching rows: take the graph's candidates, widening until k of them match.
    const allowed = new Set(matching);
    for (let wanted = Math.max(k * OVERSAMPLE, MIN_CANDIDATES) * 8; ; wanted *= 4) {
      const slots = this.candidates(q, wanted).filter((slot) => allowed.has(slot));
      if (slots.length >= k || wanted >= this.rows.size) return this.rescore(q, slots, k);
    }
  }

  /** The slots of the graph's nearest rows. */
  private candidates(query: Float32Array, wanted: number): number[] {
    const found = this.graph.search(query, Math.min(wanted, this.rows.size), 1);
    const slots: number[] = [];
    for (const key of found.keys) {
      const slot = this.rows.slotOfKeyed(Number(key));
      if (slot !== undefined) slots.push(slot);
    }
    return slots;
  }

  /** The best k of the rows at `slots` by their exact float scores. */
  private rescore(query: Float32Array, slots: number[], k: number): VectorHit[] {
    if (slots.length === 0) return [];
    const floats = this.floatsOf(this.codes.shortlist(query, slots, k).map((slot) => this.rows.idOf(slot)));
    const hits: VectorHit[] = [];
    for (const [id, vector] of floats) {
      let score = 0;
      const n = Math.min(vector.length, query.length);
      for (let i = 0; i < n; i++) score += query[i] * vector[i];
      hits.push({ id, score: Math.fround(score) });
    }
    return hits.sort(compareHits).slice(0, k);
  }
}

/** The vector cut or zero-padded to the partition's dimensions. */
function fitted(vector: Float32Array, dimensions: number): Float32Array {
  if (vector.length === dimensions) return vector;
  const out = new Float32Array(dimensions);
  out.set(vector.length > dimensions ? vector.subarray(0, dimensions) : vector);
  return out;
}
