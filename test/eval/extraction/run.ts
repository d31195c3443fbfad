/**
 * Prints extraction and contradiction quality as one JSON object:
 *   npx tsx test/eval/extraction/run.ts --part dev           # the corpus's development part (tuned on)
 *   npx tsx test/eval/extraction/run.ts --part test          # the never-tuned test part, when present
 *   npx tsx test/eval/extraction/run.ts --part test2         # the second test part, written after the model's design was fixed
 *   npx tsx test/eval/extraction/run.ts --part held-back     # the 5 % of training records the shipped model never trained on
 *   npx tsx test/eval/extraction/run.ts --part dev --details # plus missed/spurious facts and failed scenarios
 *   ... --extractor model                                      # EXTRACTOR=model; model-only: the network alone (default: rules)
 *   ... --judge model                                          # JUDGE=model: the rules and the change classifier (default: rules)
 *   ... --passes                                               # plus each rule pass's (and the network's) hits and errors
 *   ... --without-pass clauses,homes                           # the extractor without these rule passes (rules/passes.ts)
 * Also reports the older in-repo sets (labelled.ts, holdout.ts, scenarios.ts) under "legacy".
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleContradictionJudge } from '../../../pipeline/contradiction/rule-judge.js';
import { ModelContradictionJudge } from '../../../pipeline/contradiction/model-judge.js';
import { HybridFactExtractor } from '../../../pipeline/extraction/model/hybrid-extractor.js';
import { ModelFactExtractor } from '../../../pipeline/extraction/model/model-extractor.js';
import { RuleFactExtractor, type RuleOptions, type TracingFactExtractor } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { RULE_PASS_NAMES } from '../../../pipeline/extraction/rules/passes.js';
import type { ContradictionJudge } from '../../../pipeline/types.js';
import { loadCorpus, type CorpusPart } from './corpus.js';
import { holdoutStatements } from './holdout.js';
import { labelledStatements } from './labelled.js';
import { evaluateTracingExtractor, type EvalReport } from './metrics.js';
import type { LabelledStatement } from './types.js';
import { scenarios as legacyScenarios, type Scenario } from './scenarios.js';
import { runScenarios } from './simulate.js';

function summary(report: EvalReport, details: boolean, passes = false) {
  const pick = (s: EvalReport['overall']) => ({ precision: s.precision, recall: s.recall, tp: s.tp, fp: s.fp, fn: s.fn });
  return {
    statements: report.statements,
    overall: report.overall,
    perFamily: Object.fromEntries(Object.entries(report.perFamily).map(([k, s]) => [k, pick(s)])),
    ...(Object.keys(report.perTag).length > 0 ? { perTag: Object.fromEntries(Object.entries(report.perTag).map(([k, s]) => [k, pick(s)])) } : {}),
    noFactStatementsWithoutFacts: report.noFact,
    attributeAccuracy: report.attributes,
    ...(passes ? { perPass: report.perPass } : {}),
    ...(details ? { missed: report.missed, spurious: report.spurious, attributeErrors: report.attributeErrors } : {}),
  };
}

/** `model` is what EXTRACTOR=model runs (the trained extractor plus the rule facts it did not give); `model-only` the network alone. */
export type ExtractorName = 'rules' | 'model' | 'model-only';
const extractorOf = (name: ExtractorName, rules?: RuleOptions): TracingFactExtractor =>
  name === 'model-only' ? new ModelFactExtractor() : name === 'model' ? new HybridFactExtractor({ rules }) : new RuleFactExtractor(rules);

export type JudgeName = 'rules' | 'model';
const judgeOf = (name: JudgeName): ContradictionJudge => (name === 'model' ? new ModelContradictionJudge() : new RuleContradictionJudge());

async function scenarioSummary(scenarios: Scenario[], details: boolean, extractor: TracingFactExtractor, judge: ContradictionJudge) {
  const run = await runScenarios(scenarios, { extractor, judge });
  const failed = run.results.filter((r) => !r.passed);
  return {
    count: run.results.length,
    passed: run.passed,
    accuracy: run.accuracy,
    failed: details ? failed : failed.map((r) => r.id ?? r.name),
  };
}

export interface EvaluationOptions {
  details?: boolean;
  extractor?: ExtractorName;
  judge?: JudgeName;
  /** Report each rule pass's hits and errors. */
  passes?: boolean;
  /** Rule passes left out. */
  withoutPasses?: string[];
}

export async function runEvaluation(part: CorpusPart, options: EvaluationOptions = {}) {
  const { details = false, extractor: extractorName = 'rules', judge: judgeName = 'rules', passes = false, withoutPasses = [] } = options;
  const corpus = loadCorpus(part);
  const extractor = extractorOf(extractorName, withoutPasses.length > 0 ? { skip: new Set(withoutPasses) } : undefined);
  const judge = judgeOf(judgeName);
  const evaluate = async (statements: LabelledStatement[]) => summary(await evaluateTracingExtractor(statements, extractor), details, passes);
  return {
    extractor: extractorName,
    ...(withoutPasses.length > 0 ? { withoutPasses } : {}),
    judge: judgeName,
    matchingRule: 'subjectKey, predicate, normalizeObject(object) equal to any labelled alternative, and negated equal; one-to-one per statement',
    part,
    corpus: corpus.present
      ? {
          files: corpus.files,
          invalidRecords: corpus.invalid,
          locomoLabelsSkipped: corpus.skipped,
          statements: await evaluate(corpus.statements),
          scenarios: await scenarioSummary(corpus.scenarios, details, extractor, judge),
        }
      : { files: [], message: `no JSONL files in test/eval/extraction/corpus/${part}` },
    legacy: {
      labelled: await evaluate(labelledStatements),
      holdout: await evaluate(holdoutStatements),
      scenarios: await scenarioSummary(legacyScenarios, details, extractor, judge),
    },
  };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  const i = process.argv.indexOf('--part');
  const part = (i >= 0 ? process.argv[i + 1] : 'dev') as CorpusPart;
  const e = process.argv.indexOf('--extractor');
  const extractorName = (e >= 0 ? process.argv[e + 1] : 'rules') as ExtractorName;
  const j = process.argv.indexOf('--judge');
  const judgeName = (j >= 0 ? process.argv[j + 1] : 'rules') as JudgeName;
  const w = process.argv.indexOf('--without-pass');
  const withoutPasses = w >= 0 ? (process.argv[w + 1] ?? '').split(',').filter(Boolean) : [];
  const unknownPass = withoutPasses.find((name) => !RULE_PASS_NAMES.includes(name));
  if (!['dev', 'test', 'test2', 'held-back'].includes(part) || !['rules', 'model', 'model-only'].includes(extractorName) || !['rules', 'model'].includes(judgeName) || unknownPass !== undefined) {
    console.error('usage: run.ts --part dev|test|test2|held-back [--extractor rules|model|model-only] [--judge rules|model] [--details] [--passes] [--without-pass NAME,…]');
    console.error(`rule passes: ${RULE_PASS_NAMES.join(', ')}`);
    process.exit(2);
  }
  runEvaluation(part, { details: process.argv.includes('--details'), extractor: extractorName, judge: judgeName, passes: process.argv.includes('--passes'), withoutPasses })
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
