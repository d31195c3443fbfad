import { subjectKey } from '../normalize.js';
import { ruleFactsOf } from '../rules/recent-facts.js';
import { candidatePredicates } from '../taxonomy.js';
import type { ExtractedFact, ExtractionInput, FactExtractor } from '../../types.js';
import { ModelFactExtractor, type ModelFactExtractorOptions } from './model-extractor.js';

const slot = (subject: string, predicate: string) => `${subjectKey(subject)}|${predicate}`;

/**
 * What EXTRACTOR=model runs: the rule extractor's facts, which are precise where they fire, and the trained
 * extractor's facts about every subject and predicate the rules said nothing of. Where both speak of the same
 * subject and predicate the rules win: they read endings and replacements ("quit smoking", "switched from A to B")
 * with dedicated grammar, and their opposites (likes/dislikes, married_to/divorced_from) count as the same question. Chosen on the development part (training/extraction/MODEL_CARD.md).
 */
export class HybridFactExtractor implements FactExtractor {
  private readonly model: ModelFactExtractor;

  constructor(options: ModelFactExtractorOptions = {}) {
    this.model = new ModelFactExtractor(options);
  }

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    const ruleFacts = ruleFactsOf(input);
    // A rule fact covers its predicate's whole family of rivals: divorced_from Maria speaks for married_to too.
    const covered = new Set(ruleFacts.flatMap((f) => candidatePredicates(f.predicate).map((p) => slot(f.subject, p))));
    const modelFacts = await this.model.extractFacts(input);
    return [...ruleFacts, ...modelFacts.filter((f) => !covered.has(slot(f.subject, f.predicate)))];
  }
}
