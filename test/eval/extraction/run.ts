/**
 * Prints extraction quality as one JSON object:
 *   npx tsx test/eval/extraction/run.ts            # summary
 *   npx tsx test/eval/extraction/run.ts --details  # plus missed/spurious facts and failed scenarios
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleContradictionJudge } from '../../../pipeline/contradiction/rule-judge.js';
import { RuleFactExtractor, extractFactsWithRules } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { holdoutStatements } from './holdout.js';
import { labelledStatements } from './labelled.js';
import { evaluateExtractor, type EvalReport } from './metrics.js';
import { scenarios } from './scenarios.js';
import { runScenarios } from './simulate.js';

function summary(report: EvalReport, details: boolean) {
  const perFamily = Object.fromEntries(Object.entries(report.perFamily).map(([family, s]) => [family, { precision: s.precision, recall: s.recall, tp: s.tp, fp: s.fp, fn: s.fn }]));
  return {
    statements: report.statements,
    overall: report.overall,
    perFamily,
    noFactStatementsWithoutFacts: report.noFact,
    attributeAccuracy: report.attributes,
    ...(details ? { missed: report.missed, spurious: report.spurious, attributeErrors: report.attributeErrors } : {}),
  };
}

export async function runEvaluation(details = false) {
  const dev = await evaluateExtractor(labelledStatements, extractFactsWithRules);
  const holdout = await evaluateExtractor(holdoutStatements, extractFactsWithRules);
  const scenarioRun = await runScenarios(scenarios, { extractor: new RuleFactExtractor(), judge: new RuleContradictionJudge() });
  return {
    extractor: 'rules',
    matchingRule: 'subjectKey, predicate, normalizeObject(object) and negated equal; one-to-one per statement',
    dev: summary(dev, details),
    holdout: summary(holdout, details),
    scenarios: {
      count: scenarioRun.results.length,
      accuracy: scenarioRun.accuracy,
      failed: scenarioRun.results.filter((r) => !r.passed),
    },
  };
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1]);
if (isMain) {
  runEvaluation(process.argv.includes('--details'))
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((error) => {
      console.error(error);
      process.exitCode = 1;
    });
}
