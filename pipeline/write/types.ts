import type { ContradictionDecision, ExtractedEntity, ExtractedFact } from '../types.js';

/**
 * Stage inputs and outputs. Everything here is plain JSON so BullMQ can pass
 * it between flow jobs; dates travel as ISO strings.
 */
export interface WriteRef {
  workspaceId: string;
  memoryId: string;
  version: number;
}

export type Skipped = { skipped: true; reason: 'missing' | 'forgotten' | 'superseded' };

/** An extracted fact as JSON: dates become ISO strings and `validFrom` is resolved. */
export type FactDraft = Omit<ExtractedFact, 'validFrom' | 'validTo'> & {
  /** The stated date, else the write's reference time. */
  validFrom: string;
  /** Stated end of a past relation ("until 2020"), else null. */
  validTo: string | null;
};

export interface CandidateDraft {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  validFrom: string;
  seq: number;
}

export type DecisionDraft =
  | Exclude<ContradictionDecision, { kind: 'insert_closed' }>
  | { kind: 'insert_closed'; closedAt: string };

export type EmbedOutput = Skipped | { skipped: false; embedderId: string; vector: number[] };
export type EntitiesOutput = Skipped | { skipped: false; entities: ExtractedEntity[] };
export type FactsOutput = Skipped | { skipped: false; facts: FactDraft[] };
export type Stage1Output = Skipped | { skipped: false; facts: FactDraft[]; candidates: CandidateDraft[][] };
export type Stage2Output = Skipped | { skipped: false; facts: FactDraft[]; candidates: CandidateDraft[][]; decisions: DecisionDraft[] };

export interface CommitInput {
  embed: EmbedOutput;
  entities: EntitiesOutput;
  contradiction: Stage2Output;
}

export type CommitOutput =
  | Skipped
  | { skipped: false; inserted: string[]; confirmed: string[]; invalidated: string[] };
