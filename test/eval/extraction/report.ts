/**
 * One markdown table of extraction quality per corpus part and extractor (the model card's figures):
 *   npx tsx test/eval/extraction/report.ts [--extractors rules,model-only,model] [--parts dev]   (decisions are made on dev only)
 */
import { runEvaluation, type ExtractorName } from './run.js';
import type { CorpusPart } from './corpus.js';

const i = process.argv.indexOf('--extractors');
const extractors = (i >= 0 ? process.argv[i + 1] : 'rules,model-only,model').split(',') as ExtractorName[];
const p = process.argv.indexOf('--parts');
const parts = (p >= 0 ? process.argv[p + 1] : 'dev,test,test2').split(',') as CorpusPart[];

console.log('| part | extractor | statements | precision | recall | F1 | fact-free right | scenarios |');
console.log('|---|---|---|---|---|---|---|---|');
for (const part of parts) {
  for (const extractor of extractors) {
    const result = await runEvaluation(part, { extractor });
    const { statements, scenarios } = result.corpus;
    if (!statements || !scenarios) continue;
    const o = statements.overall;
    const free = statements.noFactStatementsWithoutFacts;
    console.log(`| ${part} | ${extractor} | ${statements.statements} | ${o.precision.toFixed(3)} | ${o.recall.toFixed(3)} | ${o.f1.toFixed(3)} | ${free.correct}/${free.total} | ${scenarios.passed}/${scenarios.count} |`);
  }
}
