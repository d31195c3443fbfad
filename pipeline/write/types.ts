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
  /** False when the text gave no date (validFrom is the reference time). Absent means stated. */
  validFromStated?: boolean;
  /** When the statement was made (the write's reference time). Absent means validFrom. */
  referenceTime?: string;
};

export interface CandidateDraft {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  validFrom: string;
  seq: number;
  validFromStated?: boolean;
  invalidAt?: string | null;
}

export type DecisionDraft =
  | Exclude<ContradictionDecision, { kind: 'insert_closed' } | { kind: 'insert' }>
  | { kind: 'insert'; invalidate: string[]; closedAt?: string; closedBy?: string }
  | { kind: 'insert_closed'; closedAt: string };

/**
 * The embed stage writes the vector to the index itself (`indexed`). Flows queued by an earlier version carry the
 * vector instead (float32 bytes in base64, vector-wire.ts, or a number array) for the commit to write.
 */
export type EmbedOutput =
  | Skipped
  | { skipped: false; embedderId: string; indexed: true }
  | { skipped: false; embedderId: string; vector: string | number[] };
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
