import { derivedId } from '../../core/ids.js';
import { factText, placeFact } from '../../core/commands/fact-placement.js';
import { metadataTerms, type VectorDoc, type VectorIndex } from '../../storage/vector/types.js';
import type { HistoryEventRecord, MemoryRecord, Store, UserScope } from '../../storage/types.js';
import { decide, findCandidates } from '../contradiction/candidates.js';
import { messageEndings } from '../contradiction/endings.js';
import { currentOf, isSkipped, loadCurrent } from './current.js';
import { scopeOf, takeTurn, withScopeLock } from './scope-order.js';
import { settledInTurn } from './settled.js';
import { vectorFromWire } from './vector-wire.js';
import type { ContradictionJudge, Embedder, EntityExtractor, ExtractedFact, FactExtractor, PredicateFamily } from '../types.js';
import type {
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

/** The instant facts from this write are valid from unless the text states a date. */
export function referenceTimeOf(memory: MemoryRecord): Date {
  if (memory.version === 1 && memory.referenceTime) return new Date(memory.referenceTime);
  return new Date(memory.updatedAt);
}

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

/**
 * embedStage for several writes of one workspace: one embedder call and one index write for all of them (with
 * Elasticsearch, one refresh wait instead of one each). A write that changed meanwhile, and every write when the
 * shared call fails, goes through embedStage on its own, so each write's outcome is its own.
 */
export async function embedStages(deps: PipelineDeps, refs: WriteRef[]): Promise<PromiseSettledResult<EmbedOutput>[]> {
  const alone = (ref: WriteRef) => embedStage(deps, ref);
  if (refs.length <= 1 || new Set(refs.map((r) => r.workspaceId)).size > 1) return settledInTurn(refs.map((ref) => () => alone(ref)));
  const workspaceId = refs[0].workspaceId;
  const read = async () => new Map((await deps.store.memories.getMany(workspaceId, refs.map((r) => r.memoryId))).map((m) => [m.id, m]));
  let outputs: (EmbedOutput | undefined)[];
  try {
    const before = await read();
    const current = refs.map((ref) => currentOf(before.get(ref.memoryId) ?? null, ref));
    const live = current.filter((m): m is MemoryRecord => !isSkipped(m));
    if (live.length > 0) {
      const vectors = await deps.embedder.embed(live.map((m) => m.content));
      await deps.vectors.upsert(live.map((m, i) => vectorDocOf(m, vectors[i])));
    }
    // As embedStage: a write forgotten, erased or updated while it was embedded is done again on its own.
    const after = await read();
    outputs = current.map((m, i) => {
      if (isSkipped(m)) return m;
      const now = after.get(refs[i].memoryId);
      return now && !now.deletedAt && now.version === m.version ? { skipped: false, embedderId: deps.embedder.id, indexed: true } : undefined;
    });
  } catch {
    outputs = refs.map(() => undefined);
  }
  return settledInTurn(refs.map((ref, i) => async () => outputs[i] ?? alone(ref)));
}

// ---------------------------------------------------------------- stage 1b: entities

/**
 * The write's memory at its version, or why the stage skips. `read` is the memory as a runner read it for several
 * writes at once (null: not found); the stages before the commit may use it, since the commit checks again.
 */
const currentFor = (deps: PipelineDeps, ref: WriteRef, read?: MemoryRecord | null) => (read === undefined ? loadCurrent(deps.store, ref) : currentOf(read, ref));

export async function extractEntitiesStage(deps: PipelineDeps, ref: WriteRef, read?: MemoryRecord | null): Promise<EntitiesOutput> {
  const memory = await currentFor(deps, ref, read);
  if (isSkipped(memory)) return memory;
  const entities = await deps.entityExtractor.extractEntities({ content: memory.content, referenceTime: referenceTimeOf(memory) });
  return { skipped: false, entities };
}

// ---------------------------------------------------------------- stage 1c: facts

export async function extractFactsStage(deps: PipelineDeps, ref: WriteRef, read?: MemoryRecord | null): Promise<FactsOutput> {
  const memory = await currentFor(deps, ref, read);
  if (isSkipped(memory)) return memory;
  const referenceTime = referenceTimeOf(memory);
  const extracted = await deps.factExtractor.extractFacts({ content: memory.content, referenceTime });
  return { skipped: false, facts: extracted.map((f) => factDraftOf(f, referenceTime)) };
}

/** An extracted fact as JSON, its start resolved: the stated date, else the write's reference time. */
export function factDraftOf(f: ExtractedFact, referenceTime: Date): FactDraft {
  return {
    ...f,
    validFrom: (f.validFrom ?? referenceTime).toISOString(),
    validTo: f.validTo ? f.validTo.toISOString() : null,
    validFromStated: f.validFrom !== null,
    referenceTime: referenceTime.toISOString(),
  };
}

// ---------------------------------------------------------------- stage 2: contradiction candidates

export async function contradictionStage1(deps: PipelineDeps, ref: WriteRef, input: FactsOutput, read?: MemoryRecord | null): Promise<Stage1Output> {
  if (input.skipped) return input;
  const memory = await currentFor(deps, ref, read);
  if (isSkipped(memory)) return memory;
  const own = new Set(input.facts.map((_, i) => factIdOf(ref, i)));
  const candidates = await Promise.all(input.facts.map((fact) => findCandidates(deps, scopeOf(memory), fact, own)));
  return { skipped: false, facts: input.facts, candidates };
}

// ---------------------------------------------------------------- stage 3: contradiction decision

export async function contradictionStage2(deps: PipelineDeps, ref: WriteRef, input: Stage1Output, read?: MemoryRecord | null): Promise<Stage2Output> {
  if (input.skipped) return input;
  const memory = await currentFor(deps, ref, read);
  if (isSkipped(memory)) return memory;
  const decisions: DecisionDraft[] = [];
  for (let i = 0; i < input.facts.length; i++) decisions.push(await decide(deps.judge, input.facts[i], memory.seq, input.candidates[i]));
  return { skipped: false, facts: input.facts, candidates: input.candidates, decisions };
}

// ---------------------------------------------------------------- stage 4: commit

export const factIdOf = (ref: WriteRef, index: number) => derivedId('fct', ref.memoryId, ref.version, index);

export async function commitStage(deps: PipelineDeps, ref: WriteRef, input: CommitInput, owner: string): Promise<CommitOutput> {
  return commitInTurn(deps, ref, await takeTurn(deps.store, ref), input, owner);
}

/** The commit of a write whose turn `takeTurn` has taken. */
export async function commitInTurn(deps: PipelineDeps, ref: WriteRef, turn: MemoryRecord | Skipped, input: CommitInput, owner: string): Promise<CommitOutput> {
  if (isSkipped(turn)) return turn;
  const scope = scopeOf(turn);
  // In turn, the scope's earlier writes have committed: the facts this message ends are among the live ones.
  // Asked before the lease, so the judge's model never runs inside the store's write unit.
  const endings = input.contradiction.skipped
    ? []
    : await messageEndings(deps, { scope, memoryId: ref.memoryId, content: turn.content, referenceTime: referenceTimeOf(turn).toISOString(), facts: input.contradiction.facts });

  return withScopeLock(deps.store, scope, owner, async () => {
    // Transactional only on a pipeline thread's own SQLite connection, where the vector index is the embedded one on it.
    return deps.store.writeUnit(() => commitRecords(deps, ref, scope, input, endings));
  });
}

/** Facts, history, entity links, the vector and the memory's `ready`, as one write unit of the store. */
async function commitRecords(deps: PipelineDeps, ref: WriteRef, scope: UserScope, input: CommitInput, endings: FactDraft[]): Promise<CommitOutput> {
  // Re-check under the lease: an update or deletion may have landed meanwhile.
  const memory = await loadCurrent(deps.store, ref);
  if (isSkipped(memory)) return memory;
  const at = new Date().toISOString();
  const { store } = deps;
  const result = { inserted: [] as string[], confirmed: [] as string[], invalidated: [] as string[] };

  if (!input.contradiction.skipped) {
    const { candidates, decisions } = input.contradiction;
    // The message's endings follow its own facts; they carry no planned decision, so placeFact judges them here.
    const facts = [...input.contradiction.facts, ...endings];
    const extracted: HistoryEventRecord[] = [];
    for (let i = 0; i < facts.length; i++) {
      const placed = await placeFact(deps, {
        memory,
        factId: factIdOf(ref, i),
        fact: facts[i],
        seq: memory.seq,
        sourceVersion: ref.version,
        planned: i < decisions.length ? { candidates: candidates[i], decision: decisions[i] } : undefined,
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
