import type { ExtractedFact, Tense } from '../../types.js';
import { ANY_OBJECT, familyOf, lookupPredicate } from '../taxonomy.js';
import type { SubjectRef } from './subjects.js';

/** A fact before its final shape: tense/dates may still come from the clause. */
export interface FactDraft {
  subject: SubjectRef;
  predicate: string;
  predicateRaw: string;
  object: string;
  negated: boolean;
  tense: Tense;
  validFrom: Date | null;
  validTo: Date | null;
  confidence: number;
}

export function toExtractedFact(draft: FactDraft): ExtractedFact {
  const spec = lookupPredicate(draft.predicate);
  return {
    subject: draft.subject.subject,
    subjectType: draft.subject.subjectType,
    predicate: draft.predicate,
    predicateRaw: draft.predicateRaw,
    family: familyOf(draft.predicate),
    object: draft.object,
    objectIsLiteral: draft.object === ANY_OBJECT || spec?.objectKind === 'literal',
    negated: draft.negated,
    tense: draft.tense,
    validFrom: draft.validFrom,
    validTo: draft.validTo,
    confidence: Math.round(Math.max(0.05, Math.min(1, draft.confidence * draft.subject.confidence)) * 100) / 100,
  };
}
