import { createHash } from 'node:crypto';
import { Client, errors, type ClientOptions, type estypes } from '@elastic/elasticsearch';
import { keywordTerms, stemmedText, termStem } from '../vector/keywords.js';
import {
  compareHits,
  VectorIndexUnavailableError,
  type TermStatistics,
  type VectorDoc,
  type VectorFilter,
  type VectorHit,
  type VectorIndex,
} from '../vector/types.js';

/** What one Elasticsearch document holds (one per memory). */
interface VectorSource {
  memory_id: string;
  workspace_id: string;
  /** `null` (not indexed) = the default namespace; matched with `must_not: exists`. */
  agent_id: string | null;
  user_id: string | null;
  run_id: string | null;
  metadata_terms: string[];
  vector: number[];
  /** The memory's text for BM25 `match` queries. */
  content?: string;
}

/**
 * The keyword field holds the text's Porter stems (`stemmedText`) under the core `standard` analyzer:
 * language analyzers live in the `analysis-common` module, which not every node has.
 */
const CONTENT_FIELD: estypes.MappingProperty = { type: 'text', analyzer: 'standard' };

export interface ElasticsearchVectorIndexOptions {
  /** Index name. Default `engram-memories`. */
  index?: string;
  /** Dimensions of the embedder's vectors; the index mapping is created with them and checked against them. */
  dimensions: number;
  /** Settings for a newly created index (e.g. `{ number_of_shards: 1, number_of_replicas: 0 }`). */
  settings?: estypes.IndicesIndexSettings;
  /** Extra client options for `open` (auth, TLS, timeouts…). `node` comes from the url. */
  clientOptions?: Omit<ClientOptions, 'node' | 'nodes'>;
}

/** Longest metadata term indexed verbatim; longer ones are indexed (and queried) by their SHA-256. */
const MAX_TERM_BYTES = 512;
/** Largest `k` / `num_candidates` Elasticsearch accepts. */
const MAX_CANDIDATES = 10_000;
/** Ids deleted per purge round. */
const PURGE_PAGE = 1_000;
/** Extra hits fetched beyond k so score ties at the k boundary can be re-ordered by id. */
const TIE_WINDOW = 16;

/**
 * Keyword terms are limited to 32 KB by Lucene; a metadata value can be longer.
 * Hashing keeps the filter exact (a term always contains "=", a hashed one never does).
 */
export function encodeTerm(term: string): string {
  return Buffer.byteLength(term, 'utf8') <= MAX_TERM_BYTES ? term : `#sha256:${createHash('sha256').update(term, 'utf8').digest('hex')}`;
}

/**
 * Document `_id` = workspace + memory id, so `remove(workspaceId, ids)` is an exact
 * bulk delete by `_id` that can never touch another workspace (and needs no refresh).
 * Over-long pairs are hashed (Elasticsearch caps `_id` at 512 bytes).
 */
export function documentId(workspaceId: string, id: string): string {
  const raw = `${workspaceId}:${id}`;
  return Buffer.byteLength(raw, 'utf8') <= MAX_TERM_BYTES ? raw : `#sha256:${createHash('sha256').update(JSON.stringify([workspaceId, id]), 'utf8').digest('hex')}`;
}

/** Connection failures, and a node that answers 503 (starting, or no shard available yet). */
const isUnavailable = (error: unknown) =>
  error instanceof errors.ConnectionError ||
  error instanceof errors.NoLivingConnectionsError ||
  error instanceof errors.TimeoutError ||
  (error instanceof errors.ResponseError && error.statusCode === 503);

/**
 * `VectorIndex` on an Elasticsearch 8 (8.4+) `dense_vector` field with HNSW kNN.
 *
 * - Similarity `cosine`; Elasticsearch scores kNN hits as (1 + cos) / 2, converted
 *   back here to cosine in [-1, 1].
 * - `index_options.type: 'hnsw'` keeps float vectors (newer versions default to
 *   int8 quantisation, which would make scores approximate).
 * - Filters are kNN pre-filters, so top-k is taken among the matching documents.
 *   HNSW is approximate: on very large filtered sets the true nearest neighbour can
 *   be missed (num_candidates trades recall for speed); small filtered sets are
 *   searched exactly by Elasticsearch.
 * - Ties: hits are re-sorted by (score desc, id asc). A few extra hits are fetched
 *   so ties at the k boundary resolve by id as long as they fit in that window.
 * - Writes use `refresh: 'wait_for'`: a search right after `upsert`/`remove` sees the
 *   change, at the cost of each write waiting for the next refresh (index
 *   `refresh_interval`, 1 s by default). `purge` refreshes explicitly.
 * - Uses only APIs of the server module (index, bulk, search with `knn`, refresh, mappings), so it runs on the
 *   distribution and on the Maven Central node of `npm run backends:up` alike.
 */
export class ElasticsearchVectorIndex implements VectorIndex {
  readonly kind = 'elasticsearch' as const;
  readonly index: string;
  readonly dimensions: number;
  private readonly settings: estypes.IndicesIndexSettings | undefined;

  constructor(
    readonly client: Client,
    options: Omit<ElasticsearchVectorIndexOptions, 'clientOptions'>,
    private readonly ownsClient = false,
  ) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) throw new RangeError(`dimensions must be a positive integer, got ${options.dimensions}`);
    this.index = options.index ?? 'engram-memories';
    this.dimensions = options.dimensions;
    this.settings = options.settings;
  }

  /**
   * Connects to `url` and creates the index if it does not exist yet (idempotent).
   * An unreachable cluster does not stop start-up: the service starts, search
   * answers 503, and the index is created on the first call that reaches it.
   * A reachable cluster with an incompatible index is an error.
   */
  static async open(url: string, options: ElasticsearchVectorIndexOptions): Promise<ElasticsearchVectorIndex> {
    const client = new Client({ maxRetries: 1, requestTimeout: 10_000, ...options.clientOptions, node: url });
    const index = new ElasticsearchVectorIndex(client, options, true);
    try {
      await index.ensureReady();
      return index;
    } catch (error) {
      if (error instanceof VectorIndexUnavailableError) return index;
      await client.close();
      throw error;
    }
  }

  private ready: Promise<void> | null = null;

  /** Ensures the index once; retried after a failure. */
  private ensureReady(): Promise<void> {
    this.ready ??= this.ensureIndex().catch((error) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /** Creates the index with its mapping unless it exists; an existing one must have the same dimensions. */
  async ensureIndex(): Promise<void> {
    await this.call(async () => {
      if (!(await this.client.indices.exists({ index: this.index }))) {
        try {
          await this.client.indices.create({ index: this.index, mappings: this.mappings(), ...(this.settings ? { settings: this.settings } : {}) });
          return;
        } catch (error) {
          // Created concurrently by another process: fall through to the check.
          if (!(error instanceof errors.ResponseError && error.body?.error?.type === 'resource_already_exists_exception')) throw error;
        }
      }
      await this.checkMapping();
    });
  }

  private mappings(): estypes.MappingTypeMapping {
    return {
      dynamic: 'strict',
      properties: {
        memory_id: { type: 'keyword' },
        workspace_id: { type: 'keyword' },
        agent_id: { type: 'keyword' },
        user_id: { type: 'keyword' },
        run_id: { type: 'keyword' },
        metadata_terms: { type: 'keyword' },
        content: CONTENT_FIELD,
        vector: {
          type: 'dense_vector',
          dims: this.dimensions,
          index: true,
          similarity: 'cosine',
          index_options: { type: 'hnsw', m: 16, ef_construction: 100 },
        },
      },
    };
  }

  private async checkMapping(): Promise<void> {
    const response = await this.client.indices.getMapping({ index: this.index });
    for (const [name, entry] of Object.entries(response)) {
      const vector = entry.mappings?.properties?.vector as estypes.MappingDenseVectorProperty | undefined;
      if (!vector || vector.type !== 'dense_vector') throw new Error(`Elasticsearch index ${name} has no dense_vector field "vector"; use another ELASTICSEARCH_INDEX`);
      if (vector.dims !== undefined && vector.dims !== this.dimensions) {
        throw new Error(`Elasticsearch index ${name} stores ${vector.dims}-dimensional vectors but the embedder produces ${this.dimensions}; use another index or re-embed`);
      }
      // Indices created before the keyword field existed get it added (re-embedding fills it).
      if (!entry.mappings?.properties?.content) await this.client.indices.putMapping({ index: name, properties: { content: CONTENT_FIELD } });
    }
  }

  /** Deletes the whole index (tests, re-embedding). */
  async deleteIndex(): Promise<void> {
    await this.call(() => this.client.indices.delete({ index: this.index, ignore_unavailable: true }));
  }

  async upsert(docs: VectorDoc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.ensureReady();
    const operations: (estypes.BulkOperationContainer | VectorSource)[] = [];
    for (const d of docs) {
      if (d.vector.length !== this.dimensions) throw new RangeError(`vector for ${d.id} has ${d.vector.length} dimensions, index expects ${this.dimensions}`);
      operations.push({ index: { _index: this.index, _id: documentId(d.workspaceId, d.id) } });
      operations.push({
        memory_id: d.id,
        workspace_id: d.workspaceId,
        agent_id: d.agentId ?? null,
        user_id: d.userId ?? null,
        run_id: d.runId ?? null,
        metadata_terms: [...new Set(d.metadataTerms.map(encodeTerm))],
        vector: Array.from(d.vector),
        ...(d.text?.trim() ? { content: stemmedText(d.text) } : {}),
      });
    }
    await this.bulk(operations);
  }

  async remove(workspaceId: string, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ensureReady();
    await this.bulk(ids.map((id) => ({ delete: { _index: this.index, _id: documentId(workspaceId, id) } })));
  }

  /**
   * Search-then-delete instead of `_delete_by_query`: the latter lives in Elasticsearch's reindex module, which the
   * standard distribution bundles but a node built from the Maven Central artifacts (`npm run backends:up`) lacks.
   * Each round refreshes (so every acknowledged write is visible), takes up to PURGE_PAGE matching ids and
   * bulk-deletes them by `_id`; rounds repeat until nothing matches. A document written after the last refresh is
   * left, as it would be by `_delete_by_query`.
   */
  async purge(filter: { workspaceId: string; agentId?: string | null; userId?: string | null }): Promise<void> {
    const clauses: estypes.QueryDslQueryContainer[] = [{ term: { workspace_id: filter.workspaceId } }];
    if (filter.agentId !== undefined) clauses.push(keywordEquals('agent_id', filter.agentId));
    if (filter.userId !== undefined) clauses.push(keywordEquals('user_id', filter.userId));
    await this.ensureReady();
    await this.call(async () => {
      for (;;) {
        await this.client.indices.refresh({ index: this.index });
        const found = await this.client.search({
          index: this.index,
          query: { bool: { filter: clauses } },
          size: PURGE_PAGE,
          _source: false,
          track_total_hits: false,
        });
        const ids = found.hits.hits.map((hit) => String(hit._id));
        if (ids.length === 0) return;
        const response = await this.client.bulk({ operations: ids.map((_id) => ({ delete: { _index: this.index, _id } })), refresh: false });
        const failed = response.items.map((item) => Object.values(item)[0]).find((r) => r?.error);
        if (failed) throw new Error(`Elasticsearch purge failed for ${failed._id}: ${failed.error?.type}: ${failed.error?.reason ?? ''}`);
      }
    });
  }

  async search(vector: Float32Array, filter: VectorFilter, k: number): Promise<VectorHit[]> {
    await this.ensureReady();
    if (k <= 0) return [];
    const fetch = Math.min(MAX_CANDIDATES, Math.floor(k) + TIE_WINDOW);
    const clauses = filterClauses(filter);

    const response = await this.call(() =>
      this.client.search<Pick<VectorSource, 'memory_id'>>({
        index: this.index,
        knn: {
          field: 'vector',
          query_vector: Array.from(vector),
          k: fetch,
          num_candidates: Math.min(MAX_CANDIDATES, Math.max(100, fetch * 4)),
          filter: clauses,
        },
        size: fetch,
        _source: ['memory_id'],
        track_total_hits: false,
      }),
    );
    const hits: VectorHit[] = response.hits.hits.map((hit) => ({
      id: hit._source?.memory_id ?? String(hit._id),
      // cosine similarity is scored as (1 + cos) / 2
      score: Math.max(-1, Math.min(1, 2 * (hit._score ?? 0) - 1)),
    }));
    hits.sort(compareHits);
    return hits.slice(0, k);
  }

  async searchText(query: string, filter: VectorFilter, k: number): Promise<VectorHit[]> {
    await this.ensureReady();
    const terms = keywordTerms(query);
    if (k <= 0 || terms.length === 0) return [];
    const fetch = Math.min(MAX_CANDIDATES, Math.floor(k) + TIE_WINDOW);
    const response = await this.call(() =>
      this.client.search<Pick<VectorSource, 'memory_id'>>({
        index: this.index,
        query: { bool: { must: [{ match: { content: { query: terms.map(termStem).join(' '), operator: 'or' } } }], filter: filterClauses(filter) } },
        size: fetch,
        _source: ['memory_id'],
        track_total_hits: false,
      }),
    );
    const hits: VectorHit[] = response.hits.hits.map((hit) => ({ id: hit._source?.memory_id ?? String(hit._id), score: hit._score ?? 0 }));
    hits.sort(compareHits);
    return hits.slice(0, k);
  }

  /** Document frequencies from the term vectors of an artificial document (statistics of the shard it routes to). */
  async termStatistics(_workspaceId: string, query: string): Promise<TermStatistics> {
    await this.ensureReady();
    const terms = keywordTerms(query);
    if (terms.length === 0) return { documents: 0, frequencies: new Map() };
    const response = await this.call(() =>
      this.client.termvectors({
        index: this.index,
        doc: { content: terms.map(termStem).join(' ') },
        fields: ['content'],
        term_statistics: true,
        field_statistics: true,
        positions: false,
        offsets: false,
        payloads: false,
      }),
    );
    const field = response.term_vectors?.content;
    const frequencies = new Map<string, number>();
    for (const [term, stats] of Object.entries(field?.terms ?? {})) frequencies.set(term, stats.doc_freq ?? 0);
    return { documents: field?.field_statistics?.doc_count ?? 0, frequencies };
  }

  /** Pages by `memory_id` with `search_after` after a refresh (every acknowledged write is included). */
  async *exportVectors(workspaceId: string): AsyncIterable<{ id: string; vector: Float32Array }> {
    await this.ensureReady();
    await this.call(() => this.client.indices.refresh({ index: this.index }));
    for (let after: string | undefined; ; ) {
      const response = await this.call(() =>
        this.client.search<Pick<VectorSource, 'memory_id' | 'vector'>>({
          index: this.index,
          query: { bool: { filter: [{ term: { workspace_id: workspaceId } }] } },
          sort: [{ memory_id: 'asc' }],
          size: PURGE_PAGE,
          _source: ['memory_id', 'vector'],
          track_total_hits: false,
          ...(after === undefined ? {} : { search_after: [after] }),
        }),
      );
      const hits = response.hits.hits;
      for (const hit of hits) {
        if (!hit._source) continue;
        if (hit._source.vector?.length !== this.dimensions) throw new Error(`Elasticsearch document ${hit._id} has no ${this.dimensions}-dimensional vector in its source`);
        yield { id: hit._source.memory_id, vector: Float32Array.from(hit._source.vector) };
      }
      if (hits.length < PURGE_PAGE) return;
      after = hits[hits.length - 1]._source!.memory_id;
    }
  }

  /** Reachable and the index exists (an `indices.exists` round trip; `HEAD /` needs the rest-root module). */
  async ping(): Promise<void> {
    const exists = await this.call(() => this.client.indices.exists({ index: this.index }));
    if (!exists) throw new VectorIndexUnavailableError(`Elasticsearch index ${this.index} does not exist`);
  }

  async size(): Promise<number> {
    await this.ensureReady();
    return (await this.call(() => this.client.count({ index: this.index }))).count;
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  private async bulk(operations: (estypes.BulkOperationContainer | VectorSource)[]): Promise<void> {
    const response = await this.call(() => this.client.bulk({ operations, refresh: 'wait_for' }));
    if (!response.errors) return;
    // A delete of an absent document is not an error (status 404 without `error`).
    const failed = response.items.map((item) => Object.values(item)[0]).find((r) => r?.error);
    if (failed) throw new Error(`Elasticsearch bulk write failed for ${failed._id}: ${failed.error?.type}: ${failed.error?.reason ?? ''}`);
  }

  /** Connection-level failures surface as VectorIndexUnavailableError (with the cause). */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (isUnavailable(error)) throw new VectorIndexUnavailableError(`Elasticsearch unreachable: ${(error as Error).message}`, { cause: error });
      throw error;
    }
  }
}

function filterClauses(filter: VectorFilter): estypes.QueryDslQueryContainer[] {
  const clauses: estypes.QueryDslQueryContainer[] = [{ term: { workspace_id: filter.workspaceId } }];
  if (filter.agentId !== undefined) clauses.push(keywordEquals('agent_id', filter.agentId));
  if (filter.userId !== undefined) clauses.push({ term: { user_id: filter.userId } });
  if (filter.runId !== undefined) clauses.push({ term: { run_id: filter.runId } });
  for (const term of new Set(filter.metadataTerms ?? [])) clauses.push({ term: { metadata_terms: encodeTerm(term) } });
  return clauses;
}

/** Exact keyword match; `null` selects documents without the field (stored as null). */
function keywordEquals(field: string, value: string | null): estypes.QueryDslQueryContainer {
  return value === null ? { bool: { must_not: [{ exists: { field } }] } } : { term: { [field]: value } };
}
