import type { Config } from '../../core/config.js';
import type { EntityExtractor, FactExtractor } from '../types.js';
import { LlmFactExtractor } from './llm-extractor.js';
import { HybridFactExtractor } from './model/hybrid-extractor.js';
import { createOpenAIClient } from './openai-client.js';
import { RuleEntityExtractor } from './rules/entity-extractor.js';
import { SharedRuleFactExtractor } from './rules/recent-facts.js';

export type ExtractionConfig = Pick<Config, 'EXTRACTOR' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'EXTRACTION_MODEL'>;

/**
 * EXTRACTOR=model (default): the trained extractor shipped in models/extractor, with the rule extractor's facts
 * it did not give. EXTRACTOR=rules: the rules alone. EXTRACTOR=openai: a chat model with a JSON schema.
 */
export function createFactExtractor(config: ExtractionConfig): FactExtractor {
  if (config.EXTRACTOR === 'openai') {
    return new LlmFactExtractor({ client: createOpenAIClient(config), model: config.EXTRACTION_MODEL });
  }
  if (config.EXTRACTOR === 'model') return new HybridFactExtractor();
  return new SharedRuleFactExtractor();
}

/** Entities always come from the rule extractor (compromise): cheap, offline, and good enough for aliases. */
export function createEntityExtractor(_config: ExtractionConfig): EntityExtractor {
  return new RuleEntityExtractor();
}

export { RuleFactExtractor, extractFactsWithRules } from './rules/fact-extractor.js';
export { RuleEntityExtractor, extractEntitiesWithRules } from './rules/entity-extractor.js';
export { LlmFactExtractor } from './llm-extractor.js';
export { ModelFactExtractor } from './model/model-extractor.js';
export { LlmOutputError } from './openai-client.js';
export * from './taxonomy.js';
export { normalizeObject, objectsEqual, subjectKey } from './normalize.js';
