import type { ExtractedFact } from '../../types.js';
import { normalizeObject, subjectKey } from '../normalize.js';

/**
 * Facts that follow from another fact in the same message: a car the user drives by make or model
 * ("I drive a Skoda Octavia") is a car they own. Only named vehicles: "I drive a bus" is a job.
 */
export function impliedFacts(facts: readonly ExtractedFact[]): ExtractedFact[] {
  const has = (subject: string, predicate: string, object: string) =>
    facts.some((f) => subjectKey(f.subject) === subjectKey(subject) && f.predicate === predicate && normalizeObject(f.object) === normalizeObject(object));
  const out: ExtractedFact[] = [];
  for (const fact of facts) {
    if (fact.subject !== 'user' || fact.predicate !== 'drives' || fact.negated || fact.tense !== 'current' || !/^[A-Z0-9]/.test(fact.object)) continue;
    if (has(fact.subject, 'owns', fact.object)) continue;
    out.push({ ...fact, predicate: 'owns', family: 'ownership', predicateRaw: fact.predicateRaw, confidence: Math.round(fact.confidence * 0.9 * 100) / 100 });
  }
  return out;
}
