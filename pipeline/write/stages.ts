import { derivedId } from '../../core/ids.js';
import { metadataTerms, type VectorDoc, type VectorIndex } from '../../storage/vector/types.js';
import type { FactRecord, HistoryEventRecord, MemoryRecord, Store, UserScope } from '../../storage/types.js';
import { vectorFromWire } from './vector-wire.js';
import type {
  CandidateFact,
  ContradictionDecision,
  ContradictionJudge,
  Embedder,
  EntityExtractor,
  FactExtractor,
  PredicateFamily,
} from '../types.js';
import type {
  CandidateDraft,
  CommitInput,
  CommitOutput,
  DecisionDraft,
  EmbedOutput,
  EntitiesOutput,
  FactDraft,
  FactsOutput,
  Skipped,
  Stage1Output,
  Stage2Output,
  WriteRef,
} from './types.js';

/** Taxonomy rules the stages need, injected so stages stay independent of the extractor choice. */
export interface FactRules {
  candidatePredicates(predicate: string): string[];
  normalizeObject(object: string): string;
  /** Maps a caller-supplied verb ("lives in", "works_at") onto the taxonomy. */
  canonicalPredicate(raw: string): { predicate: string; family: PredicateFamily };
  subjectKey(subject: string): string;
}

export interface PipelineDeps {
  store: Store;
  vectors: VectorIndex;
  embedder: Embedder;
  entityExtractor: EntityExtractor;
  factExtractor: FactExtractor;
  judge: ContradictionJudge;
  rules: FactRules;
}

/**
 * A commit's user-scope lease. It is renewed while the commit runs, so it can
 * be short: a killed worker's lease frees the scope within this time.
 */
const SCOPE_LEASE_MS = 5_000;

/** The memory at exactly this version, or why the stage should skip. */
async function loadCurrent(store: Store, ref: WriteRef): Promise<MemoryRecord | Skipped> {
  const memory = await store.memories.get(ref.workspaceId, ref.memoryId);
  if (!memory) return { skipped: true, reason: 'missing' };
  if (memory.deletedAt) return { skipped: true, reason: 'forgotten' };
  if (memory.version !== ref.version) return { skipped: true, reason: 'superseded' };
  return memory;
}

const isSkipped = (value: unknown): value is Skipped => (value as Skipped)?.skipped === true;

/** The instant facts from this write are valid from unless the text states a date. */
export function referenceTimeOf(memory: MemoryRecord): Date {
  if (memory.version === 1 && memory.referenceTime) return new Date(memory.referenceTime);
  return new Date(memory.updatedAt);
}

export const scopeOf = (m: Pick<MemoryRecord, 'workspaceId' | 'agentId' | 'userId'>): UserScope => ({
  workspaceId: m.workspaceId,
  agentId: m.agentId,
  userId: m.userId,
});

export const scopeLockKey = (s: UserScope) => `scope:${s.workspaceId}:${JSON.stringify([s.agentId, s.userId])}`;

// ---------------------------------------------------------------- stage 1a: embed and index

/** Rounds of re-embedding when updates keep overtaking the stage; past them the job fails and is retried. */
const INDEX_ROUNDS = 5;

function vectorDocOf(memory: MemoryRecord, vector: Float32Array): VectorDoc {
  return {
    id: memory.id,
    workspaceId: memory.workspaceId,
    agentId: memory.agentId,
    userId: memory.userId,
    runId: memory.runId,
    metadataTerms: metadataTerms(memory.metadata),
    vector,
    text: memory.content,
  };
}

/**
 * Embeds the memory and writes its vector to the index at once. A vector depends only on the content, so it needs
 * none of the scope ordering the commit waits for: a memory is searchable as soon as it is embedded, not after every
 * earlier write of its user has committed (which, with a refresh wait per commit, took up to a second a write).
 * Without that ordering, the stage re-reads the memory after writing: one forgotten or erased meanwhile loses its
 * vector again, one updated meanwhile is embedded again, so whichever stage writes last leaves the current version.
 */
export async function embedStage(deps: PipelineDeps, ref: WriteRef): Promise<EmbedOutput> {
  const loaded = await loadCurrent(deps.store, ref);
  if (isSkipped(loaded)) return loaded;
  let memory = loaded;
  for (let round = 1; ; round++) {
    const [vector] = await deps.embedder.embed([memory.content]);
    await deps.vectors.upsert([vectorDocOf(memory, vector)]);
    const now = await deps.store.memories.get(ref.workspaceId, ref.memoryId);
    if (!now || now.deletedAt) {
      await deps.vectors.remove(ref.workspaceId, [ref.memoryId]);
      return { skipped: true, reason: now ? 'forgotten' : 'missing' };
    }
    if (now.version === memory.version) break;
    if (round === INDEX_ROUNDS) throw new Error(`memory ${ref.memoryId} kept changing while it was indexed`);
    memory = now;
  }
  if (memory.version !== ref.version) return { skipped: true, reason: 'superseded' };
  return { skipped: false, embedderId: deps.embedder.id, indexed: true };
}

// ---------------------------------------------------------------- stage 1b: entities

export async function extractEntitiesStage(deps: PipelineDeps, ref: WriteRef): Promise<EntitiesOutput> {
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const entities = await deps.entityExtractor.extractEntities({ content: memory.content, referenceTime: referenceTimeOf(memory) });
  return { skipped: false, entities };
}

// ---------------------------------------------------------------- stage 1c: facts

export async function extractFactsStage(deps: PipelineDeps, ref: WriteRef): Promise<FactsOutput> {
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const referenceTime = referenceTimeOf(memory);
  const extracted = await deps.factExtractor.extractFacts({ content: memory.content, referenceTime });
  const facts: FactDraft[] = extracted.map((f) => ({
    ...f,
    validFrom: (f.validFrom ?? referenceTime).toISOString(),
    validTo: f.validTo ? f.validTo.toISOString() : null,
    validFromStated: f.validFrom !== null,
    referenceTime: referenceTime.toISOString(),
  }));
  return { skipped: false, facts };
}

// ---------------------------------------------------------------- stage 2: contradiction candidates

function toCandidate(f: FactRecord): CandidateDraft {
  return { id: f.id, subject: f.subject, predicate: f.predicate, object: f.object, validFrom: f.validFrom, seq: f.seq, validFromStated: f.validFromStated, invalidAt: f.invalidAt };
}

/** A cancelled plan is stored closed at its own start: valid at no instant. */
const neverValid = (f: FactRecord) => f.invalidAt !== null && Date.parse(f.invalidAt) <= Date.parse(f.validFrom);

/**
 * Facts in the same user scope with the same subject and the predicate or an opposite that are still
 * open where the new fact starts: live ones, and ones a later fact (a plan) will end after that instant.
 */
export async function findCandidates(
  deps: Pick<PipelineDeps, 'store' | 'rules'>,
  scope: UserScope,
  fact: Pick<FactDraft, 'subject' | 'predicate' | 'validFrom'>,
  exclude: ReadonlySet<string> = new Set(),
): Promise<CandidateDraft[]> {
  const live = await deps.store.facts.findLive(scope, deps.rules.subjectKey(fact.subject), deps.rules.candidatePredicates(fact.predicate), fact.validFrom);
  return live.filter((f) => !exclude.has(f.id) && !neverValid(f)).map(toCandidate);
}

export async function contradictionStage1(deps: PipelineDeps, ref: WriteRef, input: FactsOutput): Promise<Stage1Output> {
  if (input.skipped) return input;
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const own = new Set(input.facts.map((_, i) => factIdOf(ref, i)));
  const candidates = await Promise.all(input.facts.map((fact) => findCandidates(deps, scopeOf(memory), fact, own)));
  return { skipped: false, facts: input.facts, candidates };
}

// ---------------------------------------------------------------- stage 3: contradiction decision

const toCandidateFact = (c: CandidateDraft): CandidateFact => ({
  ...c,
  validFrom: new Date(c.validFrom),
  invalidAt: c.invalidAt ? new Date(c.invalidAt) : null,
});

const toDraft = (d: ContradictionDecision): DecisionDraft => {
  if (d.kind === 'insert_closed') return { kind: 'insert_closed', closedAt: d.closedAt.toISOString() };
  if (d.kind === 'insert' && d.closedAt) return { kind: 'insert', invalidate: d.invalidate, closedAt: d.closedAt.toISOString(), ...(d.closedBy ? { closedBy: d.closedBy } : {}) };
  if (d.kind === 'insert') return { kind: 'insert', invalidate: d.invalidate };
  return d;
};

export async function decide(judge: ContradictionJudge, fact: FactDraft, seq: number, candidates: CandidateDraft[]): Promise<DecisionDraft> {
  if (candidates.length === 0 && !fact.negated && fact.tense !== 'past') return { kind: 'insert', invalidate: [] };
  const decision = await judge.decide(
    {
      subject: fact.subject,
      predicate: fact.predicate,
      object: fact.object,
      negated: fact.negated,
      validFrom: new Date(fact.validFrom),
      seq,
      tense: fact.tense,
      validTo: fact.validTo ? new Date(fact.validTo) : null,
      validFromStated: fact.validFromStated !== false,
      referenceTime: new Date(fact.referenceTime ?? fact.validFrom),
    },
    candidates.map(toCandidateFact),
  );
  return toDraft(decision);
}

export async function contradictionStage2(deps: PipelineDeps, ref: WriteRef, input: Stage1Output): Promise<Stage2Output> {
  if (input.skipped) return input;
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const decisions: DecisionDraft[] = [];
  for (let i = 0; i < input.facts.length; i++) decisions.push(await decide(deps.judge, input.facts[i], memory.seq, input.candidates[i]));
  return { skipped: false, facts: input.facts, candidates: input.candidates, decisions };
}

// ---------------------------------------------------------------- stage 4: commit

export const factIdOf = (ref: WriteRef, index: number) => derivedId('fct', ref.memoryId, ref.version, index);
export const factText = (f: Pick<FactRecord, 'subject' | 'predicate' | 'object'>) => `${f.subject} ${f.predicate} ${f.object}`;

const sameIds = (a: CandidateDraft[], b: CandidateDraft[]) =>
  a.length === b.length && a.map((c) => c.id).sort().join() === b.map((c) => c.id).sort().join();

/** The user-scope lease stayed taken for the whole wait: the scope is busy, a retry later will get it. */
export class ScopeLockTimeoutError extends Error {
  override name = 'ScopeLockTimeoutError';
}

/** Runs `work` while holding the user-scope lease, so commits in one scope never interleave. */
export async function withScopeLock<T>(store: Store, scope: UserScope, owner: string, work: () => Promise<T>, waitMs = 20_000): Promise<T> {
  const key = scopeLockKey(scope);
  const deadline = Date.now() + waitMs;
  let delay = 2;
  while (!(await store.locks.tryAcquire(key, owner, SCOPE_LEASE_MS))) {
    if (Date.now() > deadline) throw new ScopeLockTimeoutError(`timed out waiting for the commit lock of ${key}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 50);
  }
  const renew = setInterval(() => void store.locks.tryAcquire(key, owner, SCOPE_LEASE_MS).catch(() => undefined), SCOPE_LEASE_MS / 3);
  try {
    return await work();
  } finally {
    clearInterval(renew);
    await store.locks.release(key, owner);
  }
}

export interface FactPlacement {
  memory: Pick<MemoryRecord, 'workspaceId' | 'agentId' | 'userId' | 'runId'> & { id: string | null };
  factId: string;
  fact: FactDraft;
  seq: number;
  sourceVersion: number;
  /** Stage 2's view; reused when the live candidates have not changed since. */
  planned?: { candidates: CandidateDraft[]; decision: DecisionDraft };
  /** Confirmation token (idempotent across retries). */
  token: string;
  at: string;
}

export type PlacementResult =
  | { kind: 'inserted'; fact: FactRecord; invalidated: string[] }
  | { kind: 'confirmed'; fact: FactRecord }
  | { kind: 'retracted'; invalidated: string[] };

/**
 * Applies the contradiction decision for one fact. Must run under the scope lock.
 * Every write is idempotent (deterministic ids, conditional invalidation,
 * confirmation tokens), so a retried commit never duplicates anything.
 */
export async function placeFact(deps: Pick<PipelineDeps, 'store' | 'rules' | 'judge'>, p: FactPlacement): Promise<PlacementResult> {
  const { store } = deps;
  const ws = p.memory.workspaceId;
  p = { ...p, fact: withUnknownStart(p.fact) };
  // A superseded fact ends where the new one starts, or where a past statement says it ended.
  const endsAt = p.fact.validTo ?? p.fact.validFrom;
  const existing = await store.facts.get(ws, p.factId);
  if (existing) {
    // A retry after a crash between insert and invalidation: finish the invalidation (conditional, so idempotent).
    await invalidateFacts(store, ws, existing.invalidated, endsAt, p.factId);
    return { kind: 'inserted', fact: existing, invalidated: existing.invalidated };
  }

  const scope = scopeOf(p.memory);
  const resolved = await ownWeddingAsMarriage(deps, scope, p.fact);
  if (resolved !== p.fact) p = { ...p, fact: resolved, planned: undefined };
  let planned = p.planned;
  let decision: DecisionDraft;
  for (let round = 0; ; round++) {
    const candidates = await findCandidates(deps, scope, p.fact, new Set([p.factId]));
    decision = planned && sameIds(planned.candidates, candidates) ? planned.decision : await decide(deps.judge, p.fact, p.seq, candidates);
    if (decision.kind !== 'reschedule' || round >= 3) break;
    // Moved or replaced plans: cancel them (valid at no instant), restore what they would have ended, judge again.
    await cancelPlans(store, ws, decision.cancel, p.factId);
    planned = undefined;
  }

  if (decision.kind === 'confirm') {
    const source = p.memory.id ? { memoryId: p.memory.id, version: p.sourceVersion } : null;
    const confirmed = await store.facts.confirm(ws, decision.factId, p.token, source, p.at);
    if (confirmed) return { kind: 'confirmed', fact: confirmed };
  }
  if (decision.kind === 'retract' || decision.kind === 'reschedule') {
    const ids = decision.kind === 'retract' ? decision.invalidate : [];
    // A denied plan that has not started ("the trip is off") is cancelled; other denied facts end at endsAt.
    const reference = Date.parse(p.fact.referenceTime ?? p.fact.validFrom);
    const targets = (await store.facts.query({ workspaceId: ws, ids, includeInvalidated: true }, { limit: Math.max(1, ids.length), offset: 0 })).items;
    const plans = targets.filter((f) => Date.parse(f.validFrom) > reference).map((f) => f.id);
    await cancelPlans(store, ws, plans, p.factId);
    await invalidateFacts(store, ws, ids.filter((id) => !plans.includes(id)), endsAt, p.factId);
    return { kind: 'retracted', invalidated: ids };
  }

  const invalidate = decision.kind === 'insert' ? decision.invalidate : [];
  const decidedEnd = decision.kind === 'insert_closed' ? decision.closedAt : decision.kind === 'insert' ? (decision.closedAt ?? null) : null;
  // Never valid before it starts: an end before the start closes the fact at its start.
  const closedAt = decidedEnd !== null && Date.parse(decidedEnd) < Date.parse(p.fact.validFrom) ? p.fact.validFrom : decidedEnd;
  const closedBy = decision.kind === 'insert_closed' ? 'superseded_before_recorded' : decision.kind === 'insert' && closedAt ? (decision.closedBy ?? 'superseded_before_recorded') : null;
  const record: FactRecord = {
    id: p.factId,
    workspaceId: ws,
    userId: p.memory.userId,
    agentId: p.memory.agentId,
    runId: p.memory.runId,
    subject: p.fact.subject,
    subjectKey: deps.rules.subjectKey(p.fact.subject),
    subjectType: p.fact.subjectType,
    predicate: p.fact.predicate,
    predicateRaw: p.fact.predicateRaw,
    family: p.fact.family,
    object: p.fact.object,
    objectKey: deps.rules.normalizeObject(p.fact.object),
    objectIsLiteral: p.fact.objectIsLiteral,
    tense: p.fact.tense,
    confidence: p.fact.confidence,
    validFrom: p.fact.validFrom,
    validFromStated: p.fact.validFromStated !== false,
    invalidAt: closedAt,
    invalidatedBy: closedBy,
    invalidated: invalidate,
    confirmations: [p.token],
    lastConfirmedAt: p.at,
    sourceMemoryId: p.memory.id,
    sourceMemoryIds: p.memory.id ? [p.memory.id] : [],
    sourceVersion: p.sourceVersion,
    seq: p.seq,
    createdAt: p.at,
  };
  // Insert first, then invalidate: a crash in between leaves the old fact live, and the retry completes it.
  await store.facts.insert(record);
  await invalidateFacts(store, ws, invalidate, endsAt, p.factId);
  return { kind: 'inserted', fact: record, invalidated: invalidate };
}

const OWN_WEDDING = /^(?:(?:the|our|my)\s+)?(?:own\s+)?wedding(?:\s+day)?$/i;

/**
 * "the wedding's now 10 May" names no partner: when exactly one marriage of the subject is planned and
 * has not started, the wedding is that marriage, so the statement moves it (the judge then reschedules).
 */
export async function ownWeddingAsMarriage(deps: Pick<PipelineDeps, 'store' | 'rules'>, scope: UserScope, fact: FactDraft): Promise<FactDraft> {
  if (fact.predicate !== 'attending' || fact.negated || fact.tense !== 'planned' || !OWN_WEDDING.test(fact.object.trim())) return fact;
  const now = Date.parse(fact.referenceTime ?? fact.validFrom);
  const marriages = (await deps.store.facts.findLive(scope, deps.rules.subjectKey(fact.subject), ['married_to'], new Date(now).toISOString()))
    .filter((f) => !neverValid(f) && Date.parse(f.validFrom) > now);
  const objects = new Set(marriages.map((f) => deps.rules.normalizeObject(f.object)));
  if (objects.size !== 1) return fact;
  const m = marriages[0];
  return { ...fact, predicate: 'married_to', predicateRaw: 'getting married', family: m.family, object: m.object, objectIsLiteral: m.objectIsLiteral };
}

/** The valid_from of a past fact whose start was never stated: before any date a text can name. */
export const UNKNOWN_START = '0001-01-01T00:00:00.000Z';

/**
 * "lived in Glasgow until 1985": only the end is known. The extractor dates such a fact at its end;
 * stored that way it would be valid at no instant, so it starts at UNKNOWN_START (not stated) instead.
 */
export function withUnknownStart(fact: FactDraft): FactDraft {
  if (fact.tense !== 'past' || !fact.validTo || Date.parse(fact.validFrom) < Date.parse(fact.validTo)) return fact;
  return { ...fact, validFrom: UNKNOWN_START, validFromStated: false };
}

/** Cancels plans that have not started: each is closed at its own start and what it would have ended is reopened. */
async function cancelPlans(store: Store, workspaceId: string, ids: string[], by: string): Promise<void> {
  if (ids.length === 0) return;
  await invalidateFacts(store, workspaceId, ids, new Date(0).toISOString(), by);
  for (const id of ids) await store.facts.reopen(workspaceId, id);
}

/**
 * Ends facts at `at` (never before a fact's own valid_from, so no fact is valid before it starts) and
 * records `fact_invalidated` on each one's source memory. A fact set to end later is ended earlier.
 */
export async function invalidateFacts(store: Store, workspaceId: string, ids: string[], at: string, by: string): Promise<number> {
  if (ids.length === 0) return 0;
  const before = (await store.facts.query({ workspaceId, ids, includeInvalidated: true }, { limit: ids.length, offset: 0 })).items;
  const endOf = (f: FactRecord) => (Date.parse(f.validFrom) > Date.parse(at) ? f.validFrom : at);
  const groups = new Map<string, string[]>();
  for (const f of before) groups.set(endOf(f), [...(groups.get(endOf(f)) ?? []), f.id]);
  let changed = 0;
  for (const [end, group] of groups) changed += await store.facts.invalidate(workspaceId, group, end, by);
  const events: HistoryEventRecord[] = before
    .filter((f) => f.sourceMemoryId && (f.invalidAt === null || Date.parse(f.invalidAt) > Date.parse(endOf(f))))
    .map((f) => ({
      id: derivedId('evt', 'invalidated', f.id),
      workspaceId,
      memoryId: f.sourceMemoryId!,
      event: 'fact_invalidated',
      at: endOf(f),
      factId: f.id,
      fact: factText(f),
    }));
  await store.history.append(events);
  return changed;
}

/**
 * Thrown by the commit while an earlier write in the same user scope is still
 * processing. Runners re-queue the commit shortly, without counting an attempt,
 * so a scope commits in arrival order whatever the concurrency.
 */
export class EarlierWritePending extends Error {
  constructor(
    readonly memoryId: string,
    /** The user scope's lock key and the write's sequence, when known: a runner can wake the write when its turn comes. */
    readonly scope?: string,
    readonly seq?: number,
  ) {
    super(`an earlier write in the scope of ${memoryId} is still processing`);
  }
}

/** A write processing for longer than this no longer holds back later ones (it may be stuck). */
export const ARRIVAL_ORDER_WAIT_MS = 120_000;

/** Throws EarlierWritePending while a write that arrived earlier in the same user scope is unfinished. */
export async function awaitTurn(store: Store, memory: MemoryRecord): Promise<void> {
  if (!(await turnReached(store, memory))) throw new EarlierWritePending(memory.id, scopeLockKey(scopeOf(memory)), memory.seq);
}

/** True once no write that arrived earlier in the memory's user scope is unfinished. */
export async function turnReached(store: Store, memory: MemoryRecord): Promise<boolean> {
  const since = new Date(Date.now() - ARRIVAL_ORDER_WAIT_MS).toISOString();
  return !(await store.memories.pendingBefore(scopeOf(memory), memory.seq, since));
}

/**
 * The write, once it is its turn (EarlierWritePending before that), or Skipped for a write that
 * will skip. A runner may take the turn first and gather the commit's input only then.
 */
export async function takeTurn(store: Store, ref: WriteRef): Promise<MemoryRecord | Skipped> {
  const memory = await loadCurrent(store, ref);
  if (!isSkipped(memory)) await awaitTurn(store, memory);
  return memory;
}

/** The user scope's lock key of a write whose turn was taken (undefined for one that skips). */
export const turnScopeKey = (turn: MemoryRecord | Skipped): string | undefined => (isSkipped(turn) ? undefined : scopeLockKey(scopeOf(turn)));

/** Whether a write may run its contradiction and commit stages now (a write that will skip always may). */
export async function isTurn(store: Store, ref: WriteRef): Promise<boolean> {
  const memory = await loadCurrent(store, ref);
  return isSkipped(memory) || turnReached(store, memory);
}

export async function commitStage(deps: PipelineDeps, ref: WriteRef, input: CommitInput, owner: string): Promise<CommitOutput> {
  return commitInTurn(deps, ref, await takeTurn(deps.store, ref), input, owner);
}

/** The commit of a write whose turn `takeTurn` has taken. */
export async function commitInTurn(deps: PipelineDeps, ref: WriteRef, turn: MemoryRecord | Skipped, input: CommitInput, owner: string): Promise<CommitOutput> {
  if (isSkipped(turn)) return turn;
  const scope = scopeOf(turn);

  return withScopeLock(deps.store, scope, owner, async () => {
    // Transactional only on a pipeline thread's own SQLite connection, where the vector index is the embedded one on it.
    return deps.store.writeUnit(() => commitRecords(deps, ref, scope, input));
  });
}

/** Facts, history, entity links, the vector and the memory's `ready`, as one write unit of the store. */
async function commitRecords(deps: PipelineDeps, ref: WriteRef, scope: UserScope, input: CommitInput): Promise<CommitOutput> {
  // Re-check under the lease: an update or deletion may have landed meanwhile.
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const at = new Date().toISOString();
  const { store } = deps;
  const result = { inserted: [] as string[], confirmed: [] as string[], invalidated: [] as string[] };

  if (!input.contradiction.skipped) {
    const { facts, candidates, decisions } = input.contradiction;
    const extracted: HistoryEventRecord[] = [];
    for (let i = 0; i < facts.length; i++) {
      const placed = await placeFact(deps, {
        memory,
        factId: factIdOf(ref, i),
        fact: facts[i],
        seq: memory.seq,
        sourceVersion: ref.version,
        planned: { candidates: candidates[i], decision: decisions[i] },
        token: `${ref.memoryId}:${ref.version}:${i}`,
        at,
      });
      if (placed.kind === 'retracted') {
        result.invalidated.push(...placed.invalidated);
        continue;
      }
      (placed.kind === 'confirmed' ? result.confirmed : result.inserted).push(placed.fact.id);
      if (placed.kind === 'inserted') result.invalidated.push(...placed.invalidated);
      extracted.push({
        id: derivedId('evt', 'extracted', ref.memoryId, ref.version, placed.fact.id),
        workspaceId: ref.workspaceId,
        memoryId: ref.memoryId,
        event: 'fact_extracted',
        at,
        factId: placed.fact.id,
        fact: factText(placed.fact),
      });
    }
    await store.history.append(extracted);
  }

  if (!input.entities.skipped) {
    await store.entities.unlinkMemory(ref.workspaceId, ref.memoryId);
    for (const entity of input.entities.entities) await store.entities.upsert(scope, entity, ref.memoryId, at);
  }

  // A flow whose embed stage ran before the stage indexed by itself carries the vector here.
  if (!input.embed.skipped && 'vector' in input.embed) await deps.vectors.upsert([vectorDocOf(memory, vectorFromWire(input.embed.vector))]);

  await store.memories.update(ref.workspaceId, ref.memoryId, { status: 'ready', error: null }, ref.version);
  return { skipped: false as const, ...result };
}
