import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { MongoClient, type Db } from 'mongodb';
import type { Ledger } from './ledger.js';

/** One invariant's verdict: `violations` counts what broke it, `examples` shows up to five. */
export interface Verdict {
  ok: boolean;
  violations: number;
  examples: unknown[];
  [detail: string]: unknown;
}

const verdict = (bad: unknown[], details: Record<string, unknown> = {}): Verdict => ({ ok: bad.length === 0, violations: bad.length, examples: bad.slice(0, 5), ...details });

interface MemoryRow {
  _id: string;
  workspaceId: string;
  userId: string | null;
  status: string;
  metadata: string | null;
  version: number;
  deletedAt: string | null;
}

const soakIdOf = (m: MemoryRow): string | undefined => {
  try {
    return JSON.parse(m.metadata ?? '{}').soak;
  } catch {
    return undefined;
  }
};

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

const repeated = (counts: Map<string, number>) => [...counts].filter(([, n]) => n > 1).map(([key, n]) => ({ key, n }));

/** Memory ids with status still `processing` and batches not completed: zero once the pipeline has settled. */
export async function unsettled(db: Db): Promise<number> {
  const [memories, batches] = await Promise.all([
    db.collection('memories').countDocuments({ status: 'processing', deletedAt: null }),
    db.collection('batches').countDocuments({ status: 'processing' }),
  ]);
  return memories + batches;
}

/**
 * Every invariant of the soak, read from MongoDB and Elasticsearch directly (not through the API under test).
 */
export async function checkInvariants(env: Record<string, string>, ledger: Ledger): Promise<Record<string, Verdict>> {
  const mongo = await MongoClient.connect(env.MONGODB_URL, { serverSelectionTimeoutMS: 10_000 });
  const es = new ElasticsearchClient({ node: env.ELASTICSEARCH_URL });
  try {
    const db = mongo.db(env.MONGODB_DB);
    const memories = (await db.collection('memories').find({}, { projection: { content: 0 } }).toArray()) as unknown as MemoryRow[];
    const facts = await db.collection('facts').find({}).toArray();
    const entities = await db.collection('entities').find({}).toArray();
    const history = await db.collection('history').find({}).toArray();
    const batches = await db.collection('batches').find({}).toArray();
    const vectors = await allVectorDocs(es, env.ELASTICSEARCH_INDEX);
    const indexed = (await es.count({ index: env.ELASTICSEARCH_INDEX })).count;
    const byId = new Map(memories.map((m) => [m._id, m]));
    const bySoakId = new Map<string, MemoryRow[]>();
    for (const m of memories) {
      const soak = soakIdOf(m);
      if (soak) bySoakId.set(soak, [...(bySoakId.get(soak) ?? []), m]);
    }
    const eventsOf = new Map<string, string[]>();
    for (const h of history) eventsOf.set(h.memoryId, [...(eventsOf.get(h.memoryId) ?? []), h.event]);
    const erased = (user: string | null | undefined) => user != null && ledger.erasedUsers.has(user);

    // Each accepted write: one memory, in a terminal state, with one `created` event and one `updated` per accepted update.
    const lost: unknown[] = [];
    const duplicated: unknown[] = [];
    const notTerminal: unknown[] = [];
    const historyMismatch: unknown[] = [];
    let acceptedWrites = 0;
    const expectOne = (soakId: string, memoryId: string | null, user: string, updates: number, forgotten: boolean) => {
      acceptedWrites++;
      if (erased(user)) return;
      const stored = memoryId ? byId.get(memoryId) : bySoakId.get(soakId)?.[0];
      if (!stored) return void lost.push({ soakId, memoryId, user });
      const others = (bySoakId.get(soakId) ?? []).filter((m) => m._id !== stored._id);
      if (others.length) duplicated.push({ soakId, ids: [stored._id, ...others.map((m) => m._id)] });
      if (!forgotten && stored.status !== 'ready' && stored.status !== 'error') notTerminal.push({ id: stored._id, status: stored.status });
      if (forgotten && !stored.deletedAt) notTerminal.push({ id: stored._id, forgotten: 'deletedAt not set' });
      if (ledger.unknownOutcome.has(stored._id)) return;
      const events = eventsOf.get(stored._id) ?? [];
      const n = (kind: string) => events.filter((e) => e === kind).length;
      if (n('created') !== 1 || n('updated') !== updates || n('deleted') !== (forgotten ? 1 : 0)) {
        historyMismatch.push({ id: stored._id, created: n('created'), updated: n('updated'), expected_updated: updates, deleted: n('deleted'), forgotten });
      }
    };
    for (const w of ledger.singles.values()) expectOne(w.soakId, w.memoryId, w.userId, w.updates, w.forgotten);
    for (const b of ledger.batches) for (const soakId of b.soakIds) expectOne(soakId, null, b.userId, 0, false);

    const accepted = new Set([...[...ledger.singles.values()].map((w) => w.soakId), ...ledger.batches.flatMap((b) => b.soakIds)]);
    const phantoms = memories.filter((m) => {
      const soak = soakIdOf(m);
      return soak !== undefined && !accepted.has(soak) && !ledger.unknownOutcome.has(soak);
    });

    const batchFailures = ledger.batches
      .filter((b) => !erased(b.userId))
      .map((b) => ({ b, doc: batches.find((d) => String(d._id) === b.batchId) }))
      .filter(({ b, doc }) => !doc || doc.status !== 'completed' || doc.imported + doc.failed !== b.soakIds.length)
      .map(({ b, doc }) => ({ batch: b.batchId, status: doc?.status ?? 'missing', imported: doc?.imported, failed: doc?.failed, received: b.soakIds.length }));

    // No duplicate facts: one fact per source memory version and (subject, predicate, object) in a scope.
    const factKey = (f: any) => [f.workspaceId, f.agentId, f.userId, f.sourceMemoryId, f.sourceVersion, f.subjectKey, f.predicate, f.objectKey].join('|');
    const duplicateFacts = repeated(countBy(facts, factKey));
    // An update that states the same fact again extracts it again (one event per memory version): more events
    // for a (memory, fact) than the memory has versions is a doubled extraction.
    const extracted = history.filter((h) => h.event === 'fact_extracted' && h.factId);
    const versionsOf = new Map(memories.map((m) => [m._id, m.version]));
    const duplicateExtractions = repeated(countBy(extracted, (h) => `${h.memoryId}|${h.factId}`)).filter(({ key, n }) => n > (versionsOf.get(key.split('|')[0]) ?? 1));
    const entityKey = (e: any) => [e.workspaceId, e.agentId, e.userId, e.canonical].join('|');
    const duplicateEntities = repeated(countBy(entities, entityKey));
    const doubledLinks = entities.filter((e) => new Set(e.memoryIds ?? []).size !== (e.memoryIds ?? []).length).map((e) => e._id);

    // Vectors: per workspace, the Elasticsearch documents are exactly the live, ready memories (error ones may lack one).
    const duplicateVectors = repeated(countBy(vectors, (v) => `${v.workspace_id}|${v.memory_id}`));
    const vectorIds = new Set(vectors.map((v) => `${v.workspace_id}|${v.memory_id}`));
    const live = memories.filter((m) => !m.deletedAt);
    const missingVectors = live.filter((m) => m.status === 'ready' && !vectorIds.has(`${m.workspaceId}|${m._id}`)).map((m) => m._id);
    const liveIds = new Set(live.filter((m) => m.status !== 'processing').map((m) => `${m.workspaceId}|${m._id}`));
    const strayVectors = vectors.filter((v) => !liveIds.has(`${v.workspace_id}|${v.memory_id}`)).map((v) => v.memory_id);
    const perWorkspace = [...countBy(live.filter((m) => m.status === 'ready'), (m) => m.workspaceId)].map(([ws, mongoCount]) => ({
      workspace: ws,
      mongodb_ready: mongoCount,
      elasticsearch: vectors.filter((v) => v.workspace_id === ws).length,
    }));

    // Erased users leave nothing: no memory (not even a stub), fact, entity, vector or history of theirs.
    const existingIds = new Set(memories.map((m) => m._id));
    const leftovers = [
      ...memories.filter((m) => erased(m.userId)).map((m) => ({ memory: m._id, user: m.userId })),
      ...facts.filter((f) => erased(f.userId)).map((f) => ({ fact: f._id, user: f.userId })),
      ...entities.filter((e) => erased(e.userId)).map((e) => ({ entity: e._id, user: e.userId })),
      ...vectors.filter((v) => erased(v.user_id)).map((v) => ({ vector: v.memory_id, user: v.user_id })),
      ...history.filter((h) => !existingIds.has(h.memoryId)).map((h) => ({ history: h._id, memory: h.memoryId })),
    ];

    return {
      accepted_writes_terminal_once: verdict([...lost, ...duplicated, ...notTerminal, ...historyMismatch], {
        accepted_writes: acceptedWrites,
        lost: lost.length,
        duplicated: duplicated.length,
        not_terminal: notTerminal.length,
        history_mismatch: historyMismatch.length,
        ready: memories.filter((m) => m.status === 'ready' && !m.deletedAt).length,
        error: memories.filter((m) => m.status === 'error').length,
      }),
      refused_writes_not_stored: verdict(phantoms.map((m) => ({ id: m._id, soak: soakIdOf(m) })), { unknown_outcome: ledger.unknownOutcome.size }),
      batches_completed: verdict(batchFailures, { batches: ledger.batches.length }),
      no_duplicate_facts: verdict([...duplicateFacts, ...duplicateExtractions], { facts: facts.length }),
      no_duplicate_entities: verdict([...duplicateEntities, ...doubledLinks], { entities: entities.length }),
      vectors_match_memories: verdict([...duplicateVectors, ...(indexed === vectors.length ? [] : [{ indexed, listed: vectors.length }]), ...missingVectors.map((id) => ({ missing: id })), ...strayVectors.map((id) => ({ stray: id }))], {
        per_workspace: perWorkspace,
        duplicate: duplicateVectors.length,
        missing: missingVectors.length,
        stray: strayVectors.length,
      }),
      erased_users_leave_nothing: verdict(leftovers, { erased_users: ledger.erasedUsers.size }),
    };
  } finally {
    await Promise.all([mongo.close(), es.close()]);
  }
}

/** Every document of the index (memory id, workspace, user), in pages. */
async function allVectorDocs(es: ElasticsearchClient, index: string): Promise<{ memory_id: string; workspace_id: string; user_id: string | null }[]> {
  await es.indices.refresh({ index });
  const docs: { memory_id: string; workspace_id: string; user_id: string | null }[] = [];
  let after: (string | number)[] | undefined;
  for (;;) {
    const res = await es.search<{ memory_id: string; workspace_id: string; user_id: string | null }>({
      index,
      size: 1000,
      _source: ['memory_id', 'workspace_id', 'user_id'],
      query: { match_all: {} },
      sort: [{ workspace_id: 'asc' }, { memory_id: 'asc' }],
      ...(after ? { search_after: after } : {}),
    });
    const hits = res.hits.hits;
    if (!hits.length) return docs;
    for (const hit of hits) docs.push(hit._source!);
    after = hits[hits.length - 1].sort as (string | number)[];
  }
}
