import type { ExtractedFact, ExtractionInput } from '../../types.js';
import { extractFactsWithRules, RuleFactExtractor } from './fact-extractor.js';

/**
 * Rule facts of the last few texts. A write's entity stage and fact stage both need
 * them and run moments apart in the same process (one pipeline thread, or one BullMQ
 * worker), so the second one finds them here instead of extracting again. Safe because
 * rule extraction is deterministic: the facts depend only on content and reference time.
 */
const CAPACITY = 256;
const recent = new Map<string, ExtractedFact[]>();

export function ruleFactsOf(input: ExtractionInput): ExtractedFact[] {
  const key = `${input.referenceTime.getTime()}|${input.content}`;
  let facts = recent.get(key);
  if (facts) {
    recent.delete(key); // most recently used last
  } else {
    facts = extractFactsWithRules(input);
    if (recent.size >= CAPACITY) recent.delete(recent.keys().next().value!);
  }
  recent.set(key, facts);
  // Copies: a caller changing its facts must not change another caller's.
  return facts.map((fact) => ({ ...fact }));
}

/** The rule fact extractor, sharing its work with the entity extractor. */
export class SharedRuleFactExtractor extends RuleFactExtractor {
  override async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return ruleFactsOf(input);
  }
}
