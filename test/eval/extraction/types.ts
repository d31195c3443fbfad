import type { Tense } from '../../../pipeline/types.js';

/** Reference time used for every labelled statement unless it names its own. A Saturday. */
export const REFERENCE_TIME = '2024-06-15T12:00:00.000Z';

export interface ExpectedFact {
  subject: string;
  predicate: string;
  /** One value, or acceptable alternatives (any of them matches). "*" means "whatever the current value is". */
  object: string | string[];
  /** Default false. */
  negated?: boolean;
  /** Checked only when given (attribute accuracy, not precision/recall). */
  tense?: Tense;
  /** YYYY-MM-DD (UTC); checked only when given. */
  validFrom?: string;
}

export interface LabelledStatement {
  content: string;
  facts: ExpectedFact[];
  referenceTime?: string;
  /** Corpus records carry an id and tags (families and phenomena such as negation, planned, typo). */
  id?: string;
  tags?: string[];
}

/** The alternatives of an expected object. */
export const alternatives = (object: string | string[]): string[] => (Array.isArray(object) ? object : [object]);

export const u = (predicate: string, object: string | string[], extra: Partial<ExpectedFact> = {}): ExpectedFact => ({ subject: 'user', predicate, object, ...extra });
export const s = (subject: string, predicate: string, object: string | string[], extra: Partial<ExpectedFact> = {}): ExpectedFact => ({ subject, predicate, object, ...extra });
export const none = (content: string): LabelledStatement => ({ content, facts: [] });
export const st = (content: string, ...facts: ExpectedFact[]): LabelledStatement => ({ content, facts });
