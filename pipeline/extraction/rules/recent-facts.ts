import type { ExtractedFact, ExtractionInput } from '../../types.js';
import { RuleFactExtractor, traceFactsWithRules, type TracedFact } from './fact-extractor.js';

/**
 * Rule facts of the last few texts. A write's entity stage and fact stage both need
 * them and run moments apart in the same process (one pipeline thread, or one BullMQ
 * worker), so the second one finds them here instead of extracting again. Safe because
 * rule extraction is deterministic: the facts depend only on content and reference time.
 */
const CAPACITY = 256;
const recent = new Map<string, TracedFact[]>();

export function ruleFactsOf(input: ExtractionInput): ExtractedFact[] {
  return tracedRuleFactsOf(input).map((t) => t.fact);
}

/** The same, each with the rule pass that gave it. */
export function tracedRuleFactsOf(input: ExtractionInput): TracedFact[] {
  const key = `${input.referenceTime.getTime()}|${input.content}`;
  let facts = recent.get(key);
  if (facts) {
    recent.delete(key); // most recently used last
  } else {
    facts = traceFactsWithRules(input);
    if (recent.size >= CAPACITY) recent.delete(recent.keys().next().value!);
  }
  recent.set(key, facts);
  // Copies: a caller changing its facts must not change another caller's.
  return facts.map(({ fact, pass }) => ({ fact: { ...fact }, pass }));
}

/** The rule fact extractor, sharing its work with the entity extractor. */
export class SharedRuleFactExtractor extends RuleFactExtractor {
  override async traceFacts(input: ExtractionInput): Promise<TracedFact[]> {
    return tracedRuleFactsOf(input);
  }
}
