import { PREDICATE_FAMILIES, type ExtractedFact, type ExtractionInput, type PredicateFamily } from '../../../pipeline/types.js';
import type { TracingFactExtractor } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { familyOf } from '../../../pipeline/extraction/taxonomy.js';
import { normalizeObject, subjectKey } from '../../../pipeline/extraction/normalize.js';
import { REFERENCE_TIME, alternatives, type ExpectedFact, type LabelledStatement } from './types.js';

/**
 * Precision/recall of an extractor on a labelled set.
 *
 * Matching rule: a predicted fact matches an expected one when
 *   subjectKey(subject) is equal, the predicate is equal, normalizeObject(object)
 *   is equal, and `negated` is equal (expected default false).
 * Matching is one-to-one within a statement. Precision is counted in the family
 * of the predicted predicate, recall in the family of the expected one.
 * Tense and validFrom are not part of the match; they are reported separately
 * as attribute accuracy over matched facts whose label states them.
 */

export interface Score {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface Miss {
  content: string;
  fact: string;
}

export interface EvalReport {
  statements: number;
  overall: Score;
  perFamily: Record<PredicateFamily, Score>;
  /** Per record tag (corpus records only): a statement's facts count under each of its tags. */
  perTag: Record<string, Score>;
  /** Per extractor pass (when the extractor says which gave each fact): facts that matched a label, and facts that did not. */
  perPass: Record<string, { hits: number; errors: number }>;
  /** Statements labelled with no facts that produced none. */
  noFact: { correct: number; total: number };
  attributes: { tense: { correct: number; total: number }; validFrom: { correct: number; total: number } };
  missed: Miss[];
  spurious: Miss[];
  attributeErrors: Miss[];
}

export const describeFact = (f: { subject: string; predicate: string; object: string | string[]; negated?: boolean }) =>
  `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${alternatives(f.object).join(' | ')}`;

function matches(predicted: ExtractedFact, expected: ExpectedFact): boolean {
  return (
    subjectKey(predicted.subject) === subjectKey(expected.subject) &&
    predicted.predicate === expected.predicate &&
    alternatives(expected.object).some((o) => normalizeObject(o) === normalizeObject(predicted.object)) &&
    predicted.negated === (expected.negated ?? false)
  );
}

function score(tp: number, fp: number, fn: number): Score {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return { tp, fp, fn, precision: round(precision), recall: round(recall), f1: round(f1) };
}

export async function evaluateExtractor(
  statements: LabelledStatement[],
  extract: (input: ExtractionInput) => ExtractedFact[] | Promise<ExtractedFact[]>,
  passOf?: (fact: ExtractedFact) => string | undefined,
): Promise<EvalReport> {
  const perPass: Record<string, { hits: number; errors: number }> = {};
  const countPass = (fact: ExtractedFact, outcome: 'hits' | 'errors') => {
    const pass = passOf?.(fact);
    if (pass !== undefined) (perPass[pass] ??= { hits: 0, errors: 0 })[outcome]++;
  };
  const counts = Object.fromEntries(PREDICATE_FAMILIES.map((f) => [f, { tp: 0, fp: 0, fn: 0 }])) as Record<PredicateFamily, { tp: number; fp: number; fn: number }>;
  const tagCounts: Record<string, { tp: number; fp: number; fn: number }> = {};
  const report: Omit<EvalReport, 'overall' | 'perFamily' | 'perTag' | 'perPass'> = {
    statements: statements.length,
    noFact: { correct: 0, total: 0 },
    attributes: { tense: { correct: 0, total: 0 }, validFrom: { correct: 0, total: 0 } },
    missed: [],
    spurious: [],
    attributeErrors: [],
  };

  for (const statement of statements) {
    const predicted = await extract({ content: statement.content, referenceTime: new Date(statement.referenceTime ?? REFERENCE_TIME) });
    if (statement.facts.length === 0) {
      report.noFact.total++;
      if (predicted.length === 0) report.noFact.correct++;
    }
    const unmatched = [...predicted];
    const local = { tp: 0, fp: 0, fn: 0 };
    for (const expected of statement.facts) {
      const index = unmatched.findIndex((p) => matches(p, expected));
      const family = familyOf(expected.predicate);
      if (index < 0) {
        counts[family].fn++;
        local.fn++;
        report.missed.push({ content: statement.content, fact: describeFact(expected) });
        continue;
      }
      const [found] = unmatched.splice(index, 1);
      countPass(found, 'hits');
      counts[family].tp++;
      local.tp++;
      if (expected.tense) {
        report.attributes.tense.total++;
        if (found.tense === expected.tense) report.attributes.tense.correct++;
        else report.attributeErrors.push({ content: statement.content, fact: `${describeFact(expected)}: tense ${found.tense}, expected ${expected.tense}` });
      }
      if (expected.validFrom) {
        report.attributes.validFrom.total++;
        const got = found.validFrom?.toISOString().slice(0, 10) ?? null;
        if (got === expected.validFrom) report.attributes.validFrom.correct++;
        else report.attributeErrors.push({ content: statement.content, fact: `${describeFact(expected)}: validFrom ${got}, expected ${expected.validFrom}` });
      }
    }
    for (const extra of unmatched) {
      countPass(extra, 'errors');
      counts[familyOf(extra.predicate)].fp++;
      local.fp++;
      report.spurious.push({ content: statement.content, fact: describeFact(extra) });
    }
    for (const tag of statement.tags ?? []) {
      const c = (tagCounts[tag] ??= { tp: 0, fp: 0, fn: 0 });
      c.tp += local.tp;
      c.fp += local.fp;
      c.fn += local.fn;
    }
  }

  const perFamily = Object.fromEntries(PREDICATE_FAMILIES.map((f) => [f, score(counts[f].tp, counts[f].fp, counts[f].fn)])) as Record<PredicateFamily, Score>;
  const total = Object.values(counts).reduce((acc, c) => ({ tp: acc.tp + c.tp, fp: acc.fp + c.fp, fn: acc.fn + c.fn }), { tp: 0, fp: 0, fn: 0 });
  const perTag = Object.fromEntries(Object.entries(tagCounts).sort(([a], [b]) => a.localeCompare(b)).map(([tag, c]) => [tag, score(c.tp, c.fp, c.fn)]));
  return { ...report, overall: score(total.tp, total.fp, total.fn), perFamily, perTag, perPass };
}

/** The same, for an extractor that names the pass behind each fact: the report's `perPass` is filled. */
export async function evaluateTracingExtractor(statements: LabelledStatement[], extractor: TracingFactExtractor): Promise<EvalReport> {
  const passOf = new WeakMap<ExtractedFact, string>();
  const extract = async (input: ExtractionInput) => {
    const traced = await extractor.traceFacts(input);
    for (const { fact, pass } of traced) passOf.set(fact, pass);
    return traced.map((t) => t.fact);
  };
  return evaluateExtractor(statements, extract, (fact) => passOf.get(fact));
}
