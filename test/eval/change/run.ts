/**
 * The shipped change classifier (models/change) on the change corpus's held-back records: every tenth record of
 * each file in training/change/corpus, which training/change/train.py scores and never trains on. Prints one JSON
 * object: accuracy, and precision/recall of `ended` at the shipped threshold and around it.
 *   npx tsx test/eval/change/run.ts [--dir models/change]
 * These records were written with the training data (same briefs), so they are a check of the export and the
 * threshold, not a test part; the scenario suites of test/eval/extraction are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CHANGE_DIR, PairChangeClassifier } from '../../../pipeline/contradiction/change-classifier.js';
import type { HeldFact } from '../../../pipeline/types.js';

const CORPUS = resolve(fileURLToPath(import.meta.url), '../../../../training/change/corpus');
const LABELS = ['holds', 'ended', 'will_end'] as const;

interface Known extends HeldFact {
  status: (typeof LABELS)[number];
  when?: string;
}

function heldBack(): { message: string; known: Known[] }[] {
  const out: { message: string; known: Known[] }[] = [];
  for (const file of readdirSync(CORPUS).filter((f) => f.endsWith('.jsonl')).sort()) {
    const lines = readFileSync(join(CORPUS, file), 'utf8')
      .split('\n')
      .filter((l) => l.trim());
    lines.forEach((line, i) => {
      if (i % 10 !== 0) return;
      try {
        out.push(JSON.parse(line) as { message: string; known: Known[] });
      } catch {
        // train.py skips it too
      }
    });
  }
  return out;
}

const dirArg = process.argv.indexOf('--dir');
const classifier = await PairChangeClassifier.load(dirArg > 0 ? process.argv[dirArg + 1] : DEFAULT_CHANGE_DIR);
const scored: { status: string; ended: number; best: string }[] = [];
for (const r of heldBack()) {
  const known = r.known.filter((k) => LABELS.includes(k.status));
  const held = known.map((k) => ({ subject: k.subject, predicate: k.predicate, object: k.object, ...(k.when ? { plannedFor: k.when } : {}) }));
  const scores = await classifier.classify(r.message, held);
  scores.forEach((s, i) => {
    const best = s.holds >= s.ended && s.holds >= s.willEnd ? 'holds' : s.ended >= s.willEnd ? 'ended' : 'will_end';
    scored.push({ status: known[i].status, ended: s.ended, best });
  });
}
const at = (threshold: number) => {
  const said = scored.filter((s) => s.ended >= threshold);
  const right = said.filter((s) => s.status === 'ended').length;
  const all = scored.filter((s) => s.status === 'ended').length;
  return { threshold, precision: +(right / Math.max(1, said.length)).toFixed(3), recall: +(right / Math.max(1, all)).toFixed(3) };
};
console.log(
  JSON.stringify(
    {
      pairs: scored.length,
      accuracy: +(scored.filter((s) => s.best === s.status).length / scored.length).toFixed(3),
      shipped: at(classifier.endedThreshold),
      thresholds: [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9].map(at),
    },
    null,
    2,
  ),
);
