import { normalizeObject, subjectKey } from '../normalize.js';
import { ruleFactsOf } from '../rules/recent-facts.js';
import type { ExtractedFact, ExtractionInput, FactExtractor } from '../../types.js';
import { ModelFactExtractor, type ModelFactExtractorOptions } from './model-extractor.js';

const factKey = (f: ExtractedFact) => `${subjectKey(f.subject)}|${f.predicate}|${normalizeObject(f.object)}|${f.negated}`;

/**
 * The trained extractor's facts, plus the rule extractor's facts the model did not give (same subject,
 * predicate, object and negation count as one). Measured on the development part: see MODEL_CARD.md.
 */
export class HybridFactExtractor implements FactExtractor {
  private readonly model: ModelFactExtractor;

  constructor(options: ModelFactExtractorOptions = {}) {
    this.model = new ModelFactExtractor(options);
  }

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    const modelFacts = await this.model.extractFacts(input);
    const seen = new Set(modelFacts.map(factKey));
    return [...modelFacts, ...ruleFactsOf(input).filter((f) => !seen.has(factKey(f)))];
  }
}
