/**
 * Contracts shared by the pipeline stages. Stages are pure, typed functions:
 * no Koa, BullMQ or storage imports here.
 */

export const PREDICATE_FAMILIES = [
  'preferences',
  'people',
  'places',
  'work',
  'ownership',
  'health',
  'financial',
  'events',
  'other',
] as const;
export type PredicateFamily = (typeof PREDICATE_FAMILIES)[number];

export type Tense = 'current' | 'past' | 'planned';
export const TENSES: readonly Tense[] = ['current', 'past', 'planned'];

export type EntityType = 'person' | 'place' | 'organization' | 'thing';
export type SubjectType = 'user' | EntityType | 'unknown';

/** What every extractor gets. `referenceTime` is the write time, or the add's `timestamp`. */
export interface ExtractionInput {
  content: string;
  referenceTime: Date;
}

// ---------------------------------------------------------------- embedding

export interface Embedder {
  /** Stable identifier of the model + feature recipe, e.g. "glove-sg100d+ngram-v1". Stored with the vectors. */
  readonly id: string;
  readonly dimensions: number;
  /** Returns one L2-normalised vector per text, in order. Deterministic for the default embedder. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Optional: the vector of a query, to compare with stored texts' vectors (query and document
   * encoders may differ), with each word scaled by `termWeight(stem)` when given (from the searched
   * collection's statistics), so words most memories share weigh less. Embedders without it embed
   * the query like any text.
   */
  embedQuery?(text: string, termWeight?: (stem: string) => number): Float32Array | Promise<Float32Array>;
}

// ---------------------------------------------------------------- entities

export interface ExtractedEntity {
  /** Name as written first, e.g. "Anna". */
  name: string;
  /** Canonical key used to merge mentions: lower-cased, trimmed, e.g. "anna". */
  canonical: string;
  type: EntityType;
  /** Other surface forms seen in this text ("my sister Anna" -> ["my sister"]). */
  aliases: string[];
}

export interface EntityExtractor {
  extractEntities(input: ExtractionInput): Promise<ExtractedEntity[]>;
}

// ---------------------------------------------------------------- facts

export interface ExtractedFact {
  /** Canonical subject; first person ("I", "my", "me") becomes "user". */
  subject: string;
  subjectType: SubjectType;
  /** Canonical predicate from the taxonomy, or a snake_case verb with family `other`. */
  predicate: string;
  /** The verb phrase as written, e.g. "moved to". */
  predicateRaw: string;
  family: PredicateFamily;
  object: string;
  objectIsLiteral: boolean;
  /** True when the statement denies the relation ("I don't live in Berlin any more"). */
  negated: boolean;
  tense: Tense;
  /** Stated date when the content gives one; null means "use the reference time". */
  validFrom: Date | null;
  /**
   * Stated end of the relation ("until 2020") for past facts; null/absent when unknown.
   * (Addition by the extraction module; optional so older producers stay valid.)
   */
  validTo?: Date | null;
  confidence: number;
}

export interface FactExtractor {
  extractFacts(input: ExtractionInput): Promise<ExtractedFact[]>;
}

// ---------------------------------------------------------------- contradiction

/** A live (or candidate) fact as stage 1 hands it to stage 2. */
export interface CandidateFact {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  validFrom: Date;
  /** Write sequence: a monotonically increasing number per workspace, breaking valid_from ties. */
  seq: number;
  /**
   * False when validFrom is only the time the fact was recorded (the text gave no date).
   * Absent means stated. A later statement about the present outranks an earlier undated one.
   */
  validFromStated?: boolean;
  /** Set when the fact already has a (future) end, e.g. a current home that a planned move will end. */
  invalidAt?: Date | null;
}

/** The fact being committed, as stage 2 sees it. */
export interface IncomingFact {
  subject: string;
  predicate: string;
  object: string;
  negated: boolean;
  validFrom: Date;
  seq: number;
  /**
   * From ExtractedFact. 'past' facts never invalidate a different live value and are stored closed.
   * Absent means 'current'. (Addition by the extraction module.)
   */
  tense?: Tense;
  /** From ExtractedFact.validTo: where a past fact ends. (Addition by the extraction module.) */
  validTo?: Date | null;
  /** False when the text gave no date and validFrom is the reference time. Absent means stated. */
  validFromStated?: boolean;
  /** When the statement was made (the write's reference time); absent means validFrom. */
  referenceTime?: Date;
}

export type ContradictionDecision =
  /** Same predicate and same normalised object as a live fact: confirm it, store nothing new. */
  | { kind: 'confirm'; factId: string }
  /**
   * Store the new fact; invalidate these live facts (empty when none conflict). Each ends where the new
   * fact starts (or where its own validFrom is, if later). With `closedAt` the new fact already has an
   * end: a conflicting fact (`closedBy`) starts later, e.g. a planned move.
   */
  | { kind: 'insert'; invalidate: string[]; closedAt?: Date; closedBy?: string }
  /**
   * The statement moves or replaces plans that have not started (a rescheduled wedding, a move that came
   * early): cancel them (and restore what they would have ended), then judge the fact again.
   */
  | { kind: 'reschedule'; cancel: string[] }
  /** Store the new fact already closed at `closedAt` (it is older than a conflicting live fact). */
  | { kind: 'insert_closed'; closedAt: Date }
  /** A negation with nothing to store: invalidate these live facts only. */
  | { kind: 'retract'; invalidate: string[] };

/** A fact the service holds, as a judge that reads whole messages sees it. */
export interface HeldFact {
  subject: string;
  predicate: string;
  object: string;
  /** Set for a plan: a fact that starts after the message was written (ISO date or date-time). */
  plannedFor?: string;
}

export interface ContradictionJudge {
  decide(incoming: IncomingFact, candidates: CandidateFact[]): Promise<ContradictionDecision>;
  /**
   * For judges that read whole messages: for each held fact the message speaks of, the confidence with which the
   * message ends it now, or null when it leaves it standing (pipeline/contradiction/endings.ts asks).
   */
  endings?(message: string, held: readonly HeldFact[]): Promise<(number | null)[]>;
}
