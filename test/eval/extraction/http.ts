/**
 * Extraction quality end to end over HTTP, as a client sees it: every statement of a corpus part is written to a
 * fresh server (its own user, its reference time as the write's timestamp), the stored facts are read back from
 * GET /v1/facts (history included) and scored like the in-process evaluation. A negation is no stored fact (it ends
 * the live value it denies), so only the labels' positive facts are scored here; scenarios check endings:
 *   npx tsx test/eval/extraction/http.ts --part dev                      # embedded, one write per statement
 *   npx tsx test/eval/extraction/http.ts --part dev --batches            # chronological batches of 100
 *   TEST_REDIS_URL=redis://127.0.0.1:6379 npx tsx test/eval/extraction/http.ts --part dev --bullmq
 * Runs the server's default extractor (EXTRACTOR=model unless the environment says otherwise).
 */
import type { ExtractedFact } from '../../../pipeline/types.js';
import { familyOf } from '../../../pipeline/extraction/taxonomy.js';
import { WorkerProcesses } from '../../support/processes.js';
import { startTestServer } from '../../support/server.js';
import { loadCorpus, type CorpusPart } from './corpus.js';
import { evaluateExtractor } from './metrics.js';
import { REFERENCE_TIME } from './types.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const part = (arg('--part') ?? 'dev') as CorpusPart;
const batches = process.argv.includes('--batches');
const bullmq = process.argv.includes('--bullmq');

const env: Record<string, string> = { ...(process.env.EXTRACTOR ? { EXTRACTOR: process.env.EXTRACTOR } : {}) };
if (bullmq) {
  if (!process.env.TEST_REDIS_URL) throw new Error('--bullmq needs TEST_REDIS_URL');
  Object.assign(env, { REDIS_URL: process.env.TEST_REDIS_URL, QUEUE_PREFIX: `xh${process.pid}` });
}
const server = await startTestServer(env, { runWorkers: !bullmq });
const workers = new WorkerProcesses(() => server.env);
try {
  if (bullmq) await workers.start();
  const statements = loadCorpus(part).statements.map((s) => ({ ...s, facts: s.facts.filter((f) => !f.negated) }));
  const user = (i: number) => `s${i}`;
  const writes = statements.map((s, i) => ({ content: s.content, user_id: user(i), timestamp: s.referenceTime ?? REFERENCE_TIME }));
  const started = performance.now();
  if (batches) {
    const order = writes.map((_, i) => i).sort((a, b) => Date.parse(writes[a].timestamp) - Date.parse(writes[b].timestamp));
    for (let i = 0; i < order.length; i += 100) {
      const res = await server.api().post('/v1/batch', { memories: order.slice(i, i + 100).map((k) => writes[k]) });
      if (res.status >= 300) throw new Error(`batch rejected: ${res.status} ${JSON.stringify(res.body)}`);
    }
  } else {
    for (let i = 0; i < writes.length; i += 16) {
      await Promise.all(writes.slice(i, i + 16).map((w) => server.api().post('/v1/memories', w)));
    }
  }
  await server.settle(server.key, 600_000);
  const seconds = (performance.now() - started) / 1000;
  const stored = new Map<string, ExtractedFact[]>();
  for (let i = 0; i < statements.length; i++) {
    const body = (await server.api().get(`/v1/facts?user_id=${user(i)}&include_invalidated=true&limit=200`)).body;
    stored.set(statements[i].content + '\u0000' + i, (body.facts as { subject: string; predicate: string; object: string }[]).map(
      (f) => ({ subject: f.subject, predicate: f.predicate, object: f.object, negated: false, family: familyOf(f.predicate) }) as ExtractedFact,
    ));
  }
  let next = 0;
  const report = await evaluateExtractor(statements, () => stored.get(statements[next].content + '\u0000' + next++) ?? []);
  console.log(
    JSON.stringify({
      part,
      mode: bullmq ? 'bullmq' : 'embedded',
      scored: 'positive facts only',
      writes: batches ? 'chronological batches of 100' : 'single writes, 16 in flight',
      statements: statements.length,
      secondsToSettle: Math.round(seconds),
      overall: report.overall,
      perFamily: report.perFamily,
      noFactStatementsWithoutFacts: report.noFact,
    }),
  );
} finally {
  await workers.stopAll();
  await server.close();
}
