/**
 * Extraction throughput of the default (rule-based) extractors on one core.
 *   npx tsx bench/extract.ts            # ~3 s per measurement
 *   BENCH_SECONDS=10 npx tsx bench/extract.ts
 * Prints one JSON object to stdout.
 */
import { extractEntitiesWithRules } from '../pipeline/extraction/rules/entity-extractor.js';
import { extractFactsWithRules } from '../pipeline/extraction/rules/fact-extractor.js';
import { holdoutStatements } from '../test/eval/extraction/holdout.js';
import { labelledStatements } from '../test/eval/extraction/labelled.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const referenceTime = new Date('2024-06-15T12:00:00Z');
/** Short chat messages: the labelled and holdout statements (facts, small talk, questions, transcripts). */
const messages = [...labelledStatements, ...holdoutStatements].map((s) => s.content);

interface Measurement {
  messagesPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  messages: number;
}

function measure(run: (content: string) => unknown): Measurement {
  for (const m of messages) run(m); // warm-up
  const latencies: number[] = [];
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    for (const m of messages) {
      const t = performance.now();
      run(m);
      latencies.push(performance.now() - t);
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 1000) / 1000;
  return { messagesPerSecond: Math.round(latencies.length / elapsed), p50Ms: at(0.5), p99Ms: at(0.99), messages: latencies.length };
}

const facts = measure((content) => extractFactsWithRules({ content, referenceTime }));
const entities = measure((content) => extractEntitiesWithRules({ content, referenceTime }));

const longDocument = messages.join('\n').repeat(4).slice(0, 16_000);
const docStarted = performance.now();
const docFacts = extractFactsWithRules({ content: longDocument, referenceTime });
const longDocumentMs = Math.round((performance.now() - docStarted) * 10) / 10;

console.log(
  JSON.stringify({
    benchmark: 'extract',
    node: process.version,
    singleCore: true,
    secondsPerMeasurement: seconds,
    corpus: { distinctMessages: messages.length, meanChars: Math.round(messages.reduce((n, m) => n + m.length, 0) / messages.length) },
    facts,
    entities,
    longDocument: { chars: longDocument.length, ms: longDocumentMs, facts: docFacts.length },
  }),
);
