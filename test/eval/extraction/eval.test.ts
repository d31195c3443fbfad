import { describe, expect, it } from 'vitest';
import { RuleContradictionJudge } from '../../../pipeline/contradiction/rule-judge.js';
import { HybridFactExtractor } from '../../../pipeline/extraction/model/hybrid-extractor.js';
import { RuleFactExtractor, extractFactsWithRules } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { RULE_PASS_NAMES } from '../../../pipeline/extraction/rules/passes.js';
import { PREDICATE_FAMILIES, type ExtractionInput } from '../../../pipeline/types.js';
import { familyOf } from '../../../pipeline/extraction/taxonomy.js';
import { holdoutStatements } from './holdout.js';
import { labelledStatements } from './labelled.js';
import { evaluateExtractor, evaluateTracingExtractor } from './metrics.js';
import { loadCorpus } from './corpus.js';
import { QUALITY_FLOORS, gateParts } from './floors.js';
import { scenarios } from './scenarios.js';
import { runScenarios } from './simulate.js';

// What EXTRACTOR=model (the default) runs: the trained extractor with the rule facts it did not give.
const defaultExtractor = new HybridFactExtractor();
const extractWithDefault = (input: ExtractionInput) => defaultExtractor.extractFacts(input);

describe.each(gateParts())('independent corpus, %s part (quality gate of the default extractor)', (part) => {
  const corpus = loadCorpus(part);
  const floors = QUALITY_FLOORS[part];

  it('loads valid records covering all 9 families, with fact-free statements and scenarios', () => {
    expect(corpus.invalid, JSON.stringify(corpus.invalid)).toEqual([]);
    expect(corpus.statements.length).toBeGreaterThanOrEqual(100);
    const families = new Set(corpus.statements.flatMap((s) => s.facts.map((f) => familyOf(f.predicate))));
    expect([...families].sort()).toEqual([...PREDICATE_FAMILIES].sort());
    expect(corpus.statements.filter((s) => s.facts.length === 0).length).toBeGreaterThan(0);
    expect(corpus.scenarios.length).toBeGreaterThan(0);
  });

  it(`meets the ${part} part's precision and recall floors`, async () => {
    const report = await evaluateExtractor(corpus.statements, extractWithDefault);
    expect(report.overall.precision, JSON.stringify(report.spurious.slice(0, 50))).toBeGreaterThanOrEqual(floors.precision);
    expect(report.overall.recall).toBeGreaterThanOrEqual(floors.recall);
  });

  it(`meets the ${part} part's scenario floor in the simulator`, async () => {
    const run = await runScenarios(corpus.scenarios, { extractor: defaultExtractor, judge: new RuleContradictionJudge() });
    expect(run.accuracy, JSON.stringify(run.results.filter((r) => !r.passed).map((r) => r.id))).toBeGreaterThanOrEqual(floors.scenarioAccuracy);
  });
});

describe('labelled extraction set', () => {
  it('has at least 200 statements covering all 9 families and fact-free content', () => {
    expect(labelledStatements.length).toBeGreaterThanOrEqual(200);
    const families = new Set(labelledStatements.flatMap((s) => s.facts.map((f) => familyOf(f.predicate))));
    expect([...families].sort()).toEqual([...PREDICATE_FAMILIES].sort());
    expect(labelledStatements.filter((s) => s.facts.length === 0).length).toBeGreaterThanOrEqual(30);
  });

  it('meets the precision and recall floors overall and per family', async () => {
    const report = await evaluateExtractor(labelledStatements, extractFactsWithRules);
    expect(report.overall.precision, JSON.stringify(report.spurious)).toBeGreaterThanOrEqual(0.9);
    expect(report.overall.recall, JSON.stringify(report.missed)).toBeGreaterThanOrEqual(0.75);
    for (const family of PREDICATE_FAMILIES) {
      expect(report.perFamily[family].precision, family).toBeGreaterThanOrEqual(0.9);
      expect(report.perFamily[family].recall, family).toBeGreaterThanOrEqual(0.75);
    }
    expect(report.noFact.correct).toBe(report.noFact.total);
    expect(report.attributes.tense.correct / report.attributes.tense.total).toBeGreaterThanOrEqual(0.9);
    expect(report.attributes.validFrom.correct / report.attributes.validFrom.total).toBeGreaterThanOrEqual(0.9);
  });

  it('generalises to the holdout set (written before tuning; lower floors)', async () => {
    const report = await evaluateExtractor(holdoutStatements, extractFactsWithRules);
    expect(report.overall.precision, JSON.stringify(report.spurious)).toBeGreaterThanOrEqual(0.9);
    expect(report.overall.recall, JSON.stringify(report.missed)).toBeGreaterThanOrEqual(0.75);
  });
});

describe('what each pass gives', () => {
  it('attributes every fact of the default extractor to a rule pass or the network, and the counts add up', async () => {
    const report = await evaluateTracingExtractor(labelledStatements, defaultExtractor);
    const passes = Object.entries(report.perPass);
    expect(passes.map(([name]) => name)).toEqual(expect.arrayContaining(['clauses', 'model']));
    for (const [name] of passes) expect([...RULE_PASS_NAMES, 'model']).toContain(name);
    expect(passes.reduce((n, [, c]) => n + c.hits, 0)).toBe(report.overall.tp);
    expect(passes.reduce((n, [, c]) => n + c.errors, 0)).toBe(report.overall.fp);
  });
});

describe('contradiction scenarios', () => {
  it('has at least 40 scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(40);
  });

  it('gets every scenario right with the rule extractor and rule judge', async () => {
    const run = await runScenarios(scenarios, { extractor: new RuleFactExtractor(), judge: new RuleContradictionJudge() });
    const failed = run.results.filter((r) => !r.passed);
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(run.accuracy).toBe(1);
  });
});
