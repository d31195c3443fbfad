import { subjectKey } from '../normalize.js';
import { traceFactsWithRules, type RuleOptions, type TracedFact, type TracingFactExtractor } from '../rules/fact-extractor.js';
import { tracedRuleFactsOf } from '../rules/recent-facts.js';
import { candidatePredicates } from '../taxonomy.js';
import type { ExtractedFact, ExtractionInput } from '../../types.js';
import { ModelFactExtractor, type ModelFactExtractorOptions } from './model-extractor.js';

const slot = (subject: string, predicate: string) => `${subjectKey(subject)}|${predicate}`;

/**
 * What EXTRACTOR=model runs: the rule extractor's facts, which are precise where they fire, and the trained
 * extractor's facts about every subject and predicate the rules said nothing of. Where both speak of the same
 * subject and predicate the rules win: they read endings and replacements ("quit smoking", "switched from A to B")
 * with dedicated grammar, and their opposites (likes/dislikes, married_to/divorced_from) count as the same question. Chosen on the development part (training/extraction/MODEL_CARD.md).
 */
export class HybridFactExtractor implements TracingFactExtractor {
  private readonly model: ModelFactExtractor;
  private readonly rules?: RuleOptions;

  /** `rules`: passes left out, for measuring what each adds (the product runs them all). */
  constructor(options: ModelFactExtractorOptions & { rules?: RuleOptions } = {}) {
    this.model = new ModelFactExtractor(options);
    this.rules = options.rules;
  }

  async traceFacts(input: ExtractionInput): Promise<TracedFact[]> {
    const ruleFacts = this.rules ? traceFactsWithRules(input, this.rules) : tracedRuleFactsOf(input);
    // A rule fact covers its predicate's whole family of rivals: divorced_from Maria speaks for married_to too.
    const covered = new Set(ruleFacts.flatMap(({ fact }) => candidatePredicates(fact.predicate).map((p) => slot(fact.subject, p))));
    const modelFacts = await this.model.traceFacts(input);
    return [...ruleFacts, ...modelFacts.filter(({ fact }) => !covered.has(slot(fact.subject, fact.predicate)))];
  }

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return (await this.traceFacts(input)).map((t) => t.fact);
  }
}
