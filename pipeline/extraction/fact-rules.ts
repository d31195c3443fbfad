import type { FactRules } from '../write/stages.js';
import type { PredicateFamily } from '../types.js';
import { normalizeObject, subjectKey } from './normalize.js';
import { candidatePredicates, canonicalizeVerb, familyOf, isKnownPredicate, toPredicateName } from './taxonomy.js';

/** The taxonomy's rules as the write stages and fact endpoints need them. */
export const factRules: FactRules = {
  candidatePredicates,
  normalizeObject,
  subjectKey,
  canonicalPredicate(raw: string): { predicate: string; family: PredicateFamily } {
    const trimmed = raw.trim();
    const predicate = isKnownPredicate(trimmed) ? trimmed : (canonicalizeVerb(trimmed.replace(/_/g, ' ')) ?? toPredicateName(trimmed));
    return { predicate, family: familyOf(predicate) };
  },
};
