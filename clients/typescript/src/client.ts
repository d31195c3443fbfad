import createClient, { type Client } from 'openapi-fetch';
import { EngramError, errorFromResponse } from './errors.js';
import type { paths } from './generated/openapi.js';
import { retryingFetch, sleep } from './transport.js';
import type {
  AddMemoryInput,
  AgentList,
  AgentPurge,
  AuditLog,
  AuditQuery,
  Batch,
  BatchError,
  BatchItem,
  ChatMessage,
  Context,
  ContextQuery,
  CorrectFactInput,
  DateInput,
  Events,
  EventsQuery,
  FactForget,
  FactList,
  FactsQuery,
  ListAgentsQuery,
  ListMemoriesQuery,
  ListUsersQuery,
  Memory,
  MemoryDeletion,
  MemoryHistory,
  MemoryList,
  Ping,
  Profile,
  ProfileQuery,
  SearchInput,
  SearchResults,
  UpdateMemoryInput,
  UserErasure,
  UserList,
  WriteFact,
  WriteFactInput,
} from './types.js';

export interface EngramOptions {
  /** Where Engram listens, e.g. `http://localhost:8080` (a trailing `/v1` is accepted too). */
  baseUrl: string;
  /** An Engram API key (`eng_…`); sent as `Authorization: Bearer <key>`. Keep it server-side. */
  apiKey: string;
  /** The fetch to use (default `globalThis.fetch`): for edge runtimes, proxies and tests. */
  fetch?: typeof globalThis.fetch;
  /** Retries of a request the server refused with 429 + `Retry-After` or 503, or of a read that got no answer (default 3). */
  maxRetries?: number;
  /** The longest wait before a retry; a longer `Retry-After` is not waited for and its error is thrown (default 30,000 ms). */
  maxRetryDelayMs?: number;
  /** Per attempt (default 30,000 ms). */
  timeoutMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Per-call options. */
export interface RequestOptions {
  signal?: AbortSignal;
}

export interface WaitOptions extends RequestOptions {
  /** Give up after this long (default 60,000 ms) with an `EngramError` of code `wait_timeout`. */
  timeoutMs?: number;
  /** Between polls (default 200 ms). */
  intervalMs?: number;
}

export interface BatchProgress {
  /** Items given to `addBatch`. */
  total: number;
  /** Items the server has accepted so far. */
  submitted: number;
  /** Items stored by completed batch jobs so far. */
  imported: number;
  /** Items that failed in completed batch jobs so far. */
  failed: number;
  /** The job this report is about, as last read. */
  batch: Batch;
  /** True on the last report. */
  done: boolean;
}

export interface AddBatchOptions extends RequestOptions {
  /** Give up waiting after this long, for all jobs together (default 60 s plus 2 s per 10 items), with an `EngramError` of code `wait_timeout`. */
  timeoutMs?: number;
  /** Between polls of a job (default 200 ms). */
  intervalMs?: number;
  /** Called after each submission and each change of a job's status. */
  onProgress?: (progress: BatchProgress) => void;
  /** Items per `POST /v1/batch` (at most 500, the default). */
  chunkSize?: number;
  /**
   * Wait for each job to complete before sending the next (default true), so that items are
   * applied in the order given and facts are ready on return. With false, jobs are only submitted.
   */
  wait?: boolean;
}

export interface BatchResult {
  /** The jobs, as last read. */
  batches: Batch[];
  received: number;
  imported: number;
  failed: number;
  /** Failed items; `index` is the item's position in the list given to `addBatch`. */
  errors: (BatchError & { batch_id: string })[];
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** Reads the data of a 2xx answer, or throws the typed error of any other. */
async function unwrap<R extends Result<unknown>>(pending: Promise<R>): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await pending;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as NonNullable<R['data']>;
}

const iso = (value: DateInput | undefined): string | undefined => (value instanceof Date ? value.toISOString() : value);

const text = (content: string | readonly ChatMessage[]): string =>
  typeof content === 'string' ? content : content.map((m) => `${m.role}: ${m.content}`).join('\n');

/** Drops undefined fields, so nothing the caller left out is sent. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const memoryBody = <T extends AddMemoryInput | BatchItem>(input: T) => defined({ ...input, content: text(input.content), timestamp: iso(input.timestamp) });

const MAX_BATCH = 500;

/**
 * A client for the Engram REST API.
 *
 * ```ts
 * const engram = new Engram({ baseUrl: 'http://localhost:8080', apiKey: process.env.ENGRAM_API_KEY! });
 * const memory = await engram.memories.add({ content: 'I moved to Lisbon.', user_id: 'alice' });
 * await engram.waitUntilReady(memory.id);
 * const { context } = await engram.context({ query: 'where does alice live', user_id: 'alice' });
 * ```
 */
export class Engram {
  /** The generated, fully typed openapi-fetch client, for any endpoint (`engram.api.GET('/v1/ping')`). Its errors are not thrown. */
  readonly api: Client<paths>;
  readonly memories: Memories;
  readonly facts: Facts;
  readonly users: Users;
  readonly agents: Agents;
  readonly batches: Batches;

  constructor(options: EngramOptions) {
    if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') throw new TypeError('Engram: baseUrl is required');
    if (typeof options.apiKey !== 'string' || options.apiKey === '') throw new TypeError('Engram: apiKey is required');
    const baseFetch = options.fetch ?? globalThis.fetch;
    if (typeof baseFetch !== 'function') throw new TypeError('Engram: no fetch in this runtime; pass options.fetch');
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, ''),
      headers: { ...options.headers, Accept: 'application/json', Authorization: `Bearer ${options.apiKey}` },
      fetch: retryingFetch({
        fetch: (input, init) => baseFetch(input, init),
        maxRetries: options.maxRetries ?? 3,
        maxRetryDelayMs: options.maxRetryDelayMs ?? 30_000,
        timeoutMs: options.timeoutMs ?? 30_000,
      }),
    });
    this.memories = new Memories(this);
    this.facts = new Facts(this);
    this.users = new Users(this);
    this.agents = new Agents(this);
    this.batches = new Batches(this);
  }

  /** Checks the key: `{ok, tier, scopes, workspace, ...}`. */
  ping(options: RequestOptions = {}): Promise<Ping> {
    return unwrap(this.api.GET('/v1/ping', { signal: options.signal }));
  }

  /** Semantic search over current memories, by descending cosine score. */
  search(input: SearchInput, options: RequestOptions = {}): Promise<SearchResults> {
    return unwrap(this.api.POST('/v1/memories/search', { body: defined(input), signal: options.signal }));
  }

  /** A prompt-ready block: live facts first, then the most relevant memories, within `token_budget`. */
  context(query: ContextQuery, options: RequestOptions = {}): Promise<Context> {
    return unwrap(this.api.GET('/v1/context', { params: { query: defined(query) }, signal: options.signal }));
  }

  /** A user's live facts (at `as_of`, when given), grouped by family. */
  profile(query: ProfileQuery, options: RequestOptions = {}): Promise<Profile> {
    return unwrap(this.api.GET('/v1/profile', { params: { query: defined({ ...query, as_of: iso(query.as_of) }) }, signal: options.signal }));
  }

  /** Recent writes and their pipeline status (`processing`, `ready`, `error`). */
  events(query: EventsQuery = {}, options: RequestOptions = {}): Promise<Events> {
    return unwrap(this.api.GET('/v1/events', { params: { query: defined(query) }, signal: options.signal }));
  }

  /** The audit log, newest first. */
  audit(query: AuditQuery = {}, options: RequestOptions = {}): Promise<AuditLog> {
    const q = defined({ ...query, since: iso(query.since), until: iso(query.until) });
    return unwrap(this.api.GET('/v1/audit', { params: { query: q }, signal: options.signal }));
  }

  /**
   * Waits until the pipeline has finished with one memory (or each of several): embedding, entities,
   * facts and the contradiction check. Resolves with the memories as they are then; a memory whose
   * processing failed comes back with `status: "error"`.
   */
  waitUntilReady(id: string, options?: WaitOptions): Promise<Memory>;
  waitUntilReady(ids: readonly string[], options?: WaitOptions): Promise<Memory[]>;
  async waitUntilReady(idOrIds: string | readonly string[], options: WaitOptions = {}): Promise<Memory | Memory[]> {
    const ids = typeof idOrIds === 'string' ? [idOrIds] : [...idOrIds];
    const { timeoutMs = 60_000, intervalMs = 200, signal } = options;
    const deadline = Date.now() + timeoutMs;
    const done = new Map<string, Memory>();
    for (;;) {
      const pending = [...new Set(ids)].filter((id) => !done.has(id));
      // A few requests at a time: a batch's worth of ids does not flood the server.
      for (let i = 0; i < pending.length; i += 8) {
        const memories = await Promise.all(pending.slice(i, i + 8).map((id) => this.memories.get(id, { signal })));
        for (const m of memories) if (m.status !== 'processing') done.set(m.id, m);
      }
      if (done.size === new Set(ids).size) break;
      if (Date.now() + intervalMs > deadline) {
        throw new EngramError({ status: 0, code: 'wait_timeout', message: `${new Set(ids).size - done.size} memories still processing after ${timeoutMs} ms` });
      }
      await sleep(intervalMs, signal);
    }
    const memories = ids.map((id) => done.get(id) as Memory);
    return typeof idOrIds === 'string' ? memories[0] : memories;
  }
}

/** Memories: add, read, update, forget, and import many. */
export class Memories {
  constructor(private readonly engram: Engram) {}

  /** Stores a memory; it answers at once with `status: "processing"` (see `engram.waitUntilReady`). Not idempotent. */
  add(input: AddMemoryInput, options: RequestOptions = {}): Promise<Memory> {
    return unwrap(this.engram.api.POST('/v1/memories', { body: memoryBody(input), signal: options.signal }));
  }

  /** One memory with its facts; `NotFoundError` when unknown or forgotten. */
  get(id: string, options: RequestOptions = {}): Promise<Memory> {
    return unwrap(this.engram.api.GET('/v1/memories/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** One page of memories, newest first (`limit` default 50, at most 200; `offset`). */
  list(query: ListMemoriesQuery = {}, options: RequestOptions = {}): Promise<MemoryList> {
    return unwrap(this.engram.api.GET('/v1/memories', { params: { query: defined(query) }, signal: options.signal }));
  }

  /** Replaces the content and re-runs extraction; `expected_updated_at` guards against lost updates. */
  update(id: string, input: UpdateMemoryInput, options: RequestOptions = {}): Promise<Memory> {
    const body = defined({ ...input, expected_updated_at: iso(input.expected_updated_at) });
    return unwrap(this.engram.api.PATCH('/v1/memories/{id}', { params: { path: { id } }, body, signal: options.signal }));
  }

  /** Forgets one memory and invalidates its facts (an audit row is written). */
  delete(id: string, options: RequestOptions = {}): Promise<MemoryDeletion> {
    return unwrap(this.engram.api.DELETE('/v1/memories/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** The lifecycle of one memory: created, updated, facts extracted and invalidated, deleted. */
  history(id: string, options: RequestOptions = {}): Promise<MemoryHistory> {
    return unwrap(this.engram.api.GET('/v1/memories/{id}/history', { params: { path: { id } }, signal: options.signal }));
  }

  /**
   * Imports any number of memories through `POST /v1/batch`, 500 at a time, reporting progress.
   * By default each job is awaited before the next is sent, so items are applied in the order given.
   */
  async addBatch(items: readonly BatchItem[], options: AddBatchOptions = {}): Promise<BatchResult> {
    const { onProgress, wait = true, signal } = options;
    const chunkSize = Math.min(MAX_BATCH, Math.max(1, Math.floor(options.chunkSize ?? MAX_BATCH)));
    const result: BatchResult = { batches: [], received: 0, imported: 0, failed: 0, errors: [] };
    const deadline = Date.now() + (options.timeoutMs ?? 60_000 + 2_000 * Math.ceil(items.length / 10));
    for (let start = 0; start < items.length; start += chunkSize) {
      const chunk = items.slice(start, start + chunkSize);
      let batch = await this.engram.batches.submit(chunk, { signal });
      result.received += batch.received;
      const report = (done: boolean) =>
        onProgress?.({ total: items.length, submitted: result.received, imported: result.imported, failed: result.failed, batch, done });
      if (!wait) {
        result.batches.push(batch);
        report(start + chunkSize >= items.length);
        continue;
      }
      report(false);
      while (batch.status !== 'completed') {
        if (Date.now() > deadline) throw new EngramError({ status: 0, code: 'wait_timeout', message: `batch ${batch.id} still ${batch.status}` });
        await sleep(options.intervalMs ?? 200, signal);
        batch = await this.engram.batches.get(batch.id, { signal });
      }
      result.batches.push(batch);
      result.imported += batch.imported;
      result.failed += batch.failed;
      result.errors.push(...batch.errors.map((e) => ({ ...e, index: start + e.index, batch_id: batch.id })));
      report(start + chunkSize >= items.length);
    }
    return result;
  }
}

/** Typed facts: query (with `as_of` and history), write, forget, correct. */
export class Facts {
  constructor(private readonly engram: Engram) {}

  /** Live facts by default; `as_of` gives what was true then, `include_invalidated` adds history. */
  list(query: FactsQuery = {}, options: RequestOptions = {}): Promise<FactList> {
    const { include_invalidated, as_of, ...rest } = query;
    const q = defined({ ...rest, as_of: iso(as_of), include_invalidated: include_invalidated ? ('true' as const) : undefined });
    return unwrap(this.engram.api.GET('/v1/facts', { params: { query: q }, signal: options.signal }));
  }

  /** Writes a (subject, predicate, object) fact directly; the contradiction check runs. */
  write(input: WriteFactInput, options: RequestOptions = {}): Promise<WriteFact> {
    return unwrap(this.engram.api.POST('/v1/facts', { body: defined({ ...input, valid_from: iso(input.valid_from) }), signal: options.signal }));
  }

  /** Marks a fact as no longer true from `at` (default now); idempotent. */
  forget(id: string, at?: DateInput, options: RequestOptions = {}): Promise<FactForget> {
    return unwrap(this.engram.api.POST('/v1/facts/{id}/forget', { params: { path: { id } }, body: defined({ at: iso(at) }), signal: options.signal }));
  }

  /** Corrects a live fact; the result lists the corrected id in `invalidated`. */
  correct(id: string, input: CorrectFactInput, options: RequestOptions = {}): Promise<WriteFact> {
    return unwrap(this.engram.api.PATCH('/v1/facts/{id}', { params: { path: { id } }, body: defined(input), signal: options.signal }));
  }
}

/** End users: list them, erase one. */
export class Users {
  constructor(private readonly engram: Engram) {}

  /** End users with active data, with counts. */
  list(query: ListUsersQuery = {}, options: RequestOptions = {}): Promise<UserList> {
    return unwrap(this.engram.api.GET('/v1/users', { params: { query: defined(query) }, signal: options.signal }));
  }

  /** Erases every memory and fact of one end user in the key's namespace; needs `memories:write`. */
  erase(userId: string, options: RequestOptions = {}): Promise<UserErasure> {
    return unwrap(this.engram.api.DELETE('/v1/users/{end_user}/memories', { params: { path: { end_user: userId } }, signal: options.signal }));
  }
}

/** Agent namespaces. */
export class Agents {
  constructor(private readonly engram: Engram) {}

  list(query: ListAgentsQuery = {}, options: RequestOptions = {}): Promise<AgentList> {
    return unwrap(this.engram.api.GET('/v1/agents', { params: { query: defined(query) }, signal: options.signal }));
  }

  /** Hard-purges one agent namespace. */
  purge(agentId: string, options: RequestOptions = {}): Promise<AgentPurge> {
    return unwrap(this.engram.api.DELETE('/v1/agents/{id}', { params: { path: { id: agentId } }, signal: options.signal }));
  }
}

/** Batch jobs, one request each (`engram.memories.addBatch` chunks, waits and reports progress). */
export class Batches {
  constructor(private readonly engram: Engram) {}

  /** Submits up to 500 memories as one job (`status: "processing"`). */
  submit(items: readonly BatchItem[], options: RequestOptions = {}): Promise<Batch> {
    return unwrap(this.engram.api.POST('/v1/batch', { body: { memories: items.map(memoryBody) }, signal: options.signal }));
  }

  get(id: string, options: RequestOptions = {}): Promise<Batch> {
    return unwrap(this.engram.api.GET('/v1/batch/{id}', { params: { path: { id } }, signal: options.signal }));
  }
}
