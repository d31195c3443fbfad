import { loadCorpus, type CorpusPart } from './corpus.js';

/**
 * Quality floors of the gate tests for the default extractor (EXTRACTOR=model), per corpus part. The gate applies to
 * both test parts when present (test/eval/extraction/corpus/test and test2) and to the development part otherwise.
 *
 * The product's targets (issue 20) are precision >= 0.90, recall >= 0.80 and at least 90 % of scenarios on both test
 * parts. The floors are the figures measured when they were last set, rounded down, less 0.01 for float differences
 * between CPUs, so a change that makes extraction or change handling worse fails the build; raise them as quality
 * improves. Measured 2026-11-26 with the shipped model (training/extraction/MODEL_CARD.md), once per test part:
 *   dev   precision 0.745, recall 0.561, 89/93 scenarios (the rules alone: 0.873, 0.346, 92/93; tuned on this part)
 *   test  precision 0.669, recall 0.516, 48/77 scenarios (the rules alone: 0.691, 0.271, 30/77)
 *   test2 precision 0.710, recall 0.664, 52/94 scenarios (the rules alone: 0.733, 0.334, 30/94)
 */
export const TARGETS = { precision: 0.9, recall: 0.8, scenarioAccuracy: 0.9 } as const;

/** The parts with quality floors. */
export type GatedPart = Exclude<CorpusPart, 'held-back'>;

export const QUALITY_FLOORS: Record<GatedPart, { precision: number; recall: number; scenarioAccuracy: number }> = {
  dev: { precision: 0.73, recall: 0.55, scenarioAccuracy: 0.94 },
  test: { precision: 0.65, recall: 0.5, scenarioAccuracy: 0.6 },
  test2: { precision: 0.69, recall: 0.65, scenarioAccuracy: 0.53 },
};

/** The part the scenario replay applies to: test when present, else dev; EXTRACTION_GATE_PART=dev keeps a tuning session off the test parts. */
export function gatePart(): GatedPart {
  return gateParts()[0];
}

/** The parts the quality gate applies to: both test parts when present, else dev. */
export function gateParts(): GatedPart[] {
  if (process.env.EXTRACTION_GATE_PART === 'dev') return ['dev'];
  const present = (['test', 'test2'] as const).filter((part) => loadCorpus(part).present);
  return present.length > 0 ? [...present] : ['dev'];
}
