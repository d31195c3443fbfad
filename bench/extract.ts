/**
 * Extraction throughput of the rule-based extractors and of the trained extractor (EXTRACTOR=model) on one core.
 *   npx tsx bench/extract.ts            # ~3 s per measurement
 *   BENCH_SECONDS=10 npx tsx bench/extract.ts
 * Prints one JSON object to stdout. On a shared machine read messagesPerCpuSecond: wall-clock
 * rates fall with the machine's load, CPU-time rates much less.
 */
import { loadavg } from 'node:os';
import { extractEntitiesWithRules } from '../pipeline/extraction/rules/entity-extractor.js';
import { extractFactsWithRules } from '../pipeline/extraction/rules/fact-extractor.js';
import { ruleFactsOf } from '../pipeline/extraction/rules/recent-facts.js';
import { HybridFactExtractor } from '../pipeline/extraction/model/hybrid-extractor.js';
import { holdoutStatements } from '../test/eval/extraction/holdout.js';
import { labelledStatements } from '../test/eval/extraction/labelled.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const referenceTime = new Date('2024-06-15T12:00:00Z');
/** Short chat messages: the labelled and holdout statements (facts, small talk, questions, transcripts). */
const messages = [...labelledStatements, ...holdoutStatements].map((s) => s.content);

interface Measurement {
  messagesPerSecond: number;
  /** Messages per second of this process's CPU time: what one core gives, whatever else the machine runs. */
  messagesPerCpuSecond: number;
  p50Ms: number;
  p99Ms: number;
  messages: number;
}

function measure(run: (content: string) => unknown): Measurement {
  for (const m of messages) run(m); // warm-up
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    for (const m of messages) {
      const t = performance.now();
      run(m);
      latencies.push(performance.now() - t);
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 1000) / 1000;
  return { messagesPerSecond: Math.round(latencies.length / elapsed), messagesPerCpuSecond: Math.round(latencies.length / cpuSeconds), p50Ms: at(0.5), p99Ms: at(0.99), messages: latencies.length };
}

const facts = measure((content) => extractFactsWithRules({ content, referenceTime }));
const entities = measure((content) => extractEntitiesWithRules({ content, referenceTime }));
/**
 * A write's two extraction stages together, as the pipeline runs them (issue 8: at least 2,000
 * messages per second per core): the entity stage extracts the facts it needs, the fact stage
 * finds them among the recent ones. The corpus is larger than that memory, so `entities` above
 * pays for its facts every time.
 */
const together = measure((content) => {
  extractEntitiesWithRules({ content, referenceTime });
  ruleFactsOf({ content, referenceTime });
});

/** A write's two extraction stages with EXTRACTOR=model: the rule entity stage, then the rule facts (found among the recent ones) and the trained extractor. */
async function measureModel(perCall = 1): Promise<Measurement> {
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  while (performance.now() - started < seconds * 1000) {
    for (let i = 0; i < messages.length && performance.now() - started < seconds * 1000; i += perCall) {
      const call = messages.slice(i, i + perCall);
      const t = performance.now();
      await Promise.all(
        call.map((content) => {
          extractEntitiesWithRules({ content, referenceTime });
          return model.extractFacts({ content, referenceTime });
        }),
      );
      const each = (performance.now() - t) / call.length;
      for (const _ of call) latencies.push(each);
    }
  }
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 1000) / 1000;
  return { messagesPerSecond: Math.round(latencies.length / elapsed), messagesPerCpuSecond: Math.round(latencies.length / ((cpu.user + cpu.system) / 1e6)), p50Ms: at(0.5), p99Ms: at(0.99), messages: latencies.length };
}

const rssBefore = process.memoryUsage().rss;
const model = new HybridFactExtractor({ threads: 1 });
for (const content of messages) await model.extractFacts({ content, referenceTime }); // warm-up
const modelExtraRssMb = Math.round((process.memoryUsage().rss - rssBefore) / 1e6);
const modelFactsAndEntities = await measureModel();

const longDocument = messages.join('\n').repeat(4).slice(0, 16_000);
const docStarted = performance.now();
const docFacts = extractFactsWithRules({ content: longDocument, referenceTime });
const longDocumentMs = Math.round((performance.now() - docStarted) * 10) / 10;
const modelDocStarted = performance.now();
const modelDocFacts = await model.extractFacts({ content: longDocument, referenceTime });
const modelLongDocumentMs = Math.round((performance.now() - modelDocStarted) * 10) / 10;

console.log(
  JSON.stringify({
    benchmark: 'extract',
    node: process.version,
    singleCore: true,
    secondsPerMeasurement: seconds,
    corpus: { distinctMessages: messages.length, meanChars: Math.round(messages.reduce((n, m) => n + m.length, 0) / messages.length) },
    facts,
    entities,
    factsAndEntities: together,
    model: { factsAndEntities: modelFactsAndEntities, extraRssMb: modelExtraRssMb, longDocument: { ms: modelLongDocumentMs, facts: modelDocFacts.length } },
    loadavg: loadavg().map((n) => Math.round(n * 10) / 10),
    longDocument: { chars: longDocument.length, ms: longDocumentMs, facts: docFacts.length },
  }),
);
