import { loadCorpus, type CorpusPart } from './corpus.js';

/**
 * Quality floors of the gate tests, per corpus part. The gate applies to the test part when it is
 * present (test/eval/extraction/corpus/test/*.jsonl) and to the development part otherwise.
 *
 * The product's targets (issue 8) are precision >= 0.95, recall >= 0.85 and every scenario right.
 * The floors below are the figures measured when they were last set, rounded down, so a change that
 * makes extraction or contradiction worse fails the build; raise them as quality improves.
 */
export const TARGETS = { precision: 0.95, recall: 0.85, scenarioAccuracy: 1 } as const;

export const QUALITY_FLOORS: Record<CorpusPart, { precision: number; recall: number; scenarioAccuracy: number }> = {
  // Measured 2026-11-24 on the dev part (1,422 statements, 93 scenarios) after stop 16's extraction mechanisms (labels,
  // journeys, memberships, homes, employment nouns, named children, bare relatives) and change handling (change verbs,
  // replacements, plans, wishes, endings by name or kind): precision 0.873, recall 0.346, 92/93 scenarios (0.989).
  // Before: 0.864, 0.309, 80/93.
  dev: { precision: 0.87, recall: 0.34, scenarioAccuracy: 0.98 },
  // Measured once, by the coordinator, on 2026-11-24 (stop 16) on the never-tuned test part (888 statements incl. 121
  // LoCoMo turns, 77 scenarios): precision 0.691, recall 0.271, 30/77 scenarios (0.390). Stop 15: 0.684, 0.235, 31/77.
  test: { precision: 0.68, recall: 0.26, scenarioAccuracy: 0.38 },
  test2: { precision: 0, recall: 0, scenarioAccuracy: 0 },
};

/** The part the gate applies to: test when present, else dev; EXTRACTION_GATE_PART=dev keeps a tuning session off the test part. */
export function gatePart(): CorpusPart {
  if (process.env.EXTRACTION_GATE_PART === 'dev') return 'dev';
  return loadCorpus('test').present ? 'test' : 'dev';
}
