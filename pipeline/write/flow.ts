import type { MemoryRecord } from '../../storage/types.js';
import {
  commitInTurn,
  commitStage,
  contradictionStage1,
  contradictionStage2,
  embedStage,
  embedStages,
  extractEntitiesStage,
  extractFactsStage,
  type PipelineDeps,
} from './stages.js';
import { settledInTurn } from './settled.js';
import type { CommitOutput, EmbedOutput, EntitiesOutput, FactsOutput, Skipped, Stage1Output, Stage2Output, WriteRef } from './types.js';

/**
 * The write flow, declared once for both runners (workers/embedded, workers/bullmq): its stages, the order
 * they run in, what each reads, and where each runner waits for the earlier writes of a user scope.
 * A new stage is added here (and its function in stages.ts); the runners derive everything from this.
 *
 * The names are the stages' names everywhere: BullMQ queue and job names (in-flight flows of an earlier
 * version keep being processed after an upgrade, so they must not change), the `stage` label of the
 * engram_pipeline_stage_* metrics, STAGE_CONCURRENCY.
 */
export const STAGES = ['embed', 'entities', 'facts', 'contradiction-1', 'contradiction-2', 'commit'] as const;
export type Stage = (typeof STAGES)[number];

/** What each stage returns (plain JSON: BullMQ hands it to the stages that read it). */
export interface StageOutputs {
  embed: EmbedOutput;
  entities: EntitiesOutput;
  facts: FactsOutput;
  'contradiction-1': Stage1Output;
  'contradiction-2': Stage2Output;
  commit: CommitOutput;
}

/** A write's memory once it is its turn in its user scope, or Skipped for a write that will skip. */
export type Turn = MemoryRecord | Skipped;

export interface StageContext {
  /** Who holds the user scope's commit lease while the stage runs. */
  owner: string;
  /** The write's turn, when the runner took it at this stage (its ordering point) and the stage can use it. */
  turn?: Turn;
  /**
   * The write's memory as the runner read it with the other writes of its chunk (null: not found), for the stages
   * before the commit, which otherwise read it themselves; the commit reads it again under the scope's lease.
   */
  read?: MemoryRecord | null;
}

interface StageDeclaration<S extends Stage> {
  /** The stages whose outputs this one reads; each runs before it. */
  needs: readonly Stage[];
  /** Runs the stage; `inputs` holds the outputs of the stages in `needs` (and only those). */
  run(deps: PipelineDeps, ref: WriteRef, inputs: Readonly<StageOutputs>, context: StageContext): Promise<StageOutputs[S]>;
  /** Runs the stage for several writes that need no inputs in one go (batched model calls); else `run` runs for each. */
  runMany?(deps: PipelineDeps, refs: WriteRef[]): Promise<PromiseSettledResult<StageOutputs[S]>[]>;
}

/**
 * The stages in the order they are listed in STAGES; a stage needs only stages listed before it.
 * embed, entities and facts need nothing and run side by side; contradiction-1 reads the facts,
 * contradiction-2 the candidates, and commit everything.
 */
export const WRITE_FLOW: { readonly [S in Stage]: StageDeclaration<S> } = {
  embed: { needs: [], run: (deps, ref) => embedStage(deps, ref), runMany: (deps, refs) => embedStages(deps, refs) },
  entities: { needs: [], run: (deps, ref, _, { read }) => extractEntitiesStage(deps, ref, read) },
  facts: { needs: [], run: (deps, ref, _, { read }) => extractFactsStage(deps, ref, read) },
  'contradiction-1': { needs: ['facts'], run: (deps, ref, inputs, { read }) => contradictionStage1(deps, ref, inputs.facts, read) },
  'contradiction-2': { needs: ['contradiction-1'], run: (deps, ref, inputs, { read }) => contradictionStage2(deps, ref, inputs['contradiction-1'], read) },
  commit: {
    needs: ['embed', 'entities', 'contradiction-2'],
    run: (deps, ref, inputs, { owner, turn }) => {
      const input = { embed: inputs.embed, entities: inputs.entities, contradiction: inputs['contradiction-2'] };
      // A runner that took the turn at this stage hands it over; otherwise the commit checks it itself.
      return turn === undefined ? commitStage(deps, ref, input, owner) : commitInTurn(deps, ref, turn, input, owner);
    },
  },
};

/** The last stage: its end is the write's end (`ready`), and what its runner records as success. */
export const FINAL_STAGE = 'commit' satisfies Stage;

/**
 * Where each runner makes a write wait until no earlier write of its user scope is unfinished (arrival order
 * per user scope, docs/architecture.md). The stages before it run as soon as a write is taken; from it on,
 * they run against the committed state of the scope. The two runners wait at different points:
 *
 * - embedded: before contradiction-1. A write runs start to end in one pipeline thread, where the wait is cheap
 *   (a cross-thread message wakes it), and contradiction-1 then finds its candidates among facts the earlier
 *   writes have already committed, so the commit rarely has to judge again.
 * - bullmq: at commit. Each stage is a job of its own queue; a stage that waits holds a worker slot or goes to
 *   delayed, and the wake-up is the commit queue's `completed` event (workers/bullmq/turn-waiters.ts). Waiting
 *   at commit keeps that machinery on one queue and lets the contradiction stages run ahead in parallel; the
 *   commit, under the scope lease, judges again whatever candidates changed meanwhile (placeFact).
 *
 * Moving either would change throughput and what the contradiction stages see of a scope, so each keeps its point.
 */
export const ORDERING_POINT = { embedded: 'contradiction-1', bullmq: 'commit' } as const satisfies Record<'embedded' | 'bullmq', Stage>;

/** A write's turn as a runner's wait took it. */
export interface TakenTurn {
  turn: Turn;
  /** The user scope's lock key (scopeLockKey), when the wait knows it: what `TurnWait.ended` is told. */
  scopeKey?: string;
}

/**
 * How a runner makes a write wait at its ordering point, one implementation per runner:
 * workers/embedded/turns.ts (a cross-thread message when a commit of the scope lands, else a short poll) and
 * workers/bullmq/turn-waiters.ts (parked in the worker slot for a moment, else delayed and promoted when a
 * commit of the scope lands in any worker process).
 */
export interface TurnWait {
  /**
   * Resolves with the write's turn once no earlier write of its user scope is unfinished. Throws
   * EarlierWritePending when the runner should hand the write's slot to other work and try again later.
   */
  take(ref: WriteRef): Promise<TakenTurn>;
  /** A write of the scope ended (undefined: a scope the runner does not know): the scope's waiting writes look again. */
  ended(scopeKey: string | undefined): void;
}

/** The stages before and from `point`, in order. */
export function splitAt(point: Stage): { before: Stage[]; from: Stage[] } {
  const at = STAGES.indexOf(point);
  return { before: STAGES.slice(0, at), from: STAGES.slice(at) };
}

/** Runs one stage of the flow with its inputs. */
export function runStage<S extends Stage>(stage: S, deps: PipelineDeps, ref: WriteRef, inputs: Readonly<StageOutputs>, context: StageContext): Promise<StageOutputs[S]> {
  return (WRITE_FLOW[stage] as StageDeclaration<S>).run(deps, ref, inputs, context);
}

/**
 * Runs one stage for several writes (a chunk of one user scope, in arrival order), each with its inputs. Each
 * write's result is its own: one write's failure does not fail the others. The writes run one after another,
 * as many jobs of single writes would in one slot: side by side, a few chunk jobs would put hundreds of queries
 * in front of the database at once, and commits queued behind them would wait for all of them. The stage's
 * commit is not run this way: a runner commits a chunk's writes one by one, each in its turn.
 */
export function runStageForEach<S extends Stage>(
  stage: S,
  deps: PipelineDeps,
  refs: WriteRef[],
  inputs: Readonly<StageOutputs>[],
  context: StageContext,
): Promise<PromiseSettledResult<StageOutputs[S]>[]> {
  const declaration = WRITE_FLOW[stage] as StageDeclaration<S>;
  if (declaration.runMany) return declaration.runMany(deps, refs);
  if (refs.length === 0) return Promise.resolve([]);
  // One read of the chunk's memories instead of one per write (refs of a chunk share a workspace).
  const read = deps.store.memories.getMany(refs[0].workspaceId, refs.map((r) => r.memoryId)).then((found) => new Map(found.map((m) => [m.id, m])));
  return read.then((memories) =>
    settledInTurn(refs.map((ref, i) => () => declaration.run(deps, ref, inputs[i], { ...context, read: memories.get(ref.memoryId) ?? null }))),
  );
}
