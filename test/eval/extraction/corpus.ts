import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { TENSES } from '../../../pipeline/types.js';
import type { Scenario } from './scenarios.js';
import type { LabelledStatement } from './types.js';

/**
 * The independently written JSONL corpus (see corpus/README.md): statements and
 * multi-step scenarios, split by record id into a development part (`corpus/dev`,
 * used for tuning) and a test part (`corpus/test`, never tuned on; added by whoever
 * measures). Every line is validated with zod; invalid lines are reported, not used.
 */

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'corpus');
export type CorpusPart = 'dev' | 'test' | 'test2' | 'held-back';

/**
 * `held-back`: the training records the shipped extractor was not trained on (train.py holds back 5 % of the
 * training corpus at random and lists them in models/extractor/held-back-ids.txt). Neither the network nor the
 * rules were fitted to them, so they can choose between extractors; they are training data, written with the
 * training corpus, so they are no test part.
 */
const TRAINING_CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../../training/extraction/corpus');
const HELD_BACK_IDS = join(dirname(fileURLToPath(import.meta.url)), '../../../models/extractor/held-back-ids.txt');

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const objectValue = z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]);

const factSchema = z.object({
  subject: z.string().min(1),
  predicate: z.string().min(1),
  object: objectValue,
  negated: z.boolean().optional(),
  tense: z.enum(TENSES as unknown as ['current', 'past', 'planned']).optional(),
  validFrom: day.nullable().optional(),
});

export const statementSchema = z.object({
  id: z.string().min(1),
  voice: z.string().optional(),
  /** Absent for LoCoMo turn labels: the text is read in place from the LoCoMo data (never copied here). */
  content: z.string().min(1).optional(),
  conversation: z.string().optional(),
  dia_id: z.string().optional(),
  speaker: z.string().optional(),
  facts: z.array(factSchema),
  tags: z.array(z.string()).default([]),
  referenceTime: z.iso.datetime({ offset: true }).optional(),
});

const scenarioFact = z.object({ user_id: z.string().min(1), subject: z.string().min(1), predicate: z.string().min(1), object: objectValue });
const scenarioKey = z.object({ user_id: z.string().min(1), subject: z.string().min(1), predicate: z.string().min(1) });

export const scenarioSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  steps: z.array(z.object({ user_id: z.string().min(1), content: z.string().min(1), timestamp: z.iso.datetime({ offset: true }) })).min(1),
  expectLive: z.array(scenarioFact).default([]),
  expectPlanned: z.array(scenarioFact).default([]),
  expectInvalidated: z.array(scenarioFact).default([]),
  expectNoLive: z.array(scenarioKey).default([]),
  asOf: z
    .array(z.object({ at: z.iso.datetime({ offset: true }), expectLive: z.array(scenarioFact).default([]), expectNotLive: z.array(scenarioFact).default([]) }))
    .default([]),
  tags: z.array(z.string()).default([]),
});

export interface InvalidRecord {
  file: string;
  line: number;
  error: string;
}

/**
 * LoCoMo (CC BY-NC) is evaluation data that stays outside the repository: labels reference turns by
 * conversation and dia_id and the text is read from LOCOMO_PATH (default ../shared/data/locomo/locomo-dev.json
 * next to the repository). Without it those labels are skipped and counted.
 */
export const LOCOMO_PATH = process.env.LOCOMO_PATH ?? join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/data/locomo/locomo-dev.json');

let locomoTurns: Map<string, string> | null | undefined;
function locomoTurn(conversation: string, diaId: string): string | undefined {
  if (locomoTurns === undefined) {
    locomoTurns = null;
    if (existsSync(LOCOMO_PATH)) {
      locomoTurns = new Map();
      const data = JSON.parse(readFileSync(LOCOMO_PATH, 'utf8')) as { sample_id: string; conversation: Record<string, unknown> }[];
      for (const sample of data) {
        for (const [key, turns] of Object.entries(sample.conversation)) {
          if (!/^session_\d+$/.test(key) || !Array.isArray(turns)) continue;
          for (const turn of turns as { dia_id: string; text: string }[]) locomoTurns.set(`${sample.sample_id}:${turn.dia_id}`, turn.text);
        }
      }
    }
  }
  return locomoTurns?.get(`${conversation}:${diaId}`);
}

export interface CorpusPartData {
  part: CorpusPart;
  present: boolean;
  files: string[];
  statements: LabelledStatement[];
  scenarios: Scenario[];
  invalid: InvalidRecord[];
  /** LoCoMo labels whose text could not be read (LOCOMO_PATH missing). */
  skipped: number;
}

function readJsonl<T>(file: string, schema: z.ZodType<T>, invalid: InvalidRecord[]): T[] {
  const out: T[] = [];
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (error) {
      invalid.push({ file, line: i + 1, error: `invalid JSON: ${(error as Error).message}` });
      return;
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) out.push(parsed.data);
    else invalid.push({ file, line: i + 1, error: parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ') });
  });
  return out;
}

/** Loads one part; `present` is false when its folder holds no JSONL files (e.g. the test part before it is added). */
export function loadCorpus(part: CorpusPart, dir = CORPUS_DIR): CorpusPartData {
  if (part === 'held-back') return loadHeldBack();
  const folder = join(dir, part);
  const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.jsonl')).sort() : [];
  const data: CorpusPartData = { part, present: files.length > 0, files, statements: [], scenarios: [], invalid: [], skipped: 0 };
  for (const name of files) {
    const file = join(folder, name);
    if (name.startsWith('scenarios')) {
      for (const s of readJsonl(file, scenarioSchema, data.invalid)) data.scenarios.push(s);
    } else {
      for (const s of readJsonl(file, statementSchema, data.invalid)) {
        const content = s.content ?? (s.conversation && s.dia_id ? locomoTurn(s.conversation, s.dia_id) : undefined);
        if (content === undefined) {
          if (s.conversation && s.dia_id) data.skipped++;
          else data.invalid.push({ file, line: 0, error: `${s.id}: no content` });
          continue;
        }
        data.statements.push({
          id: s.id,
          content,
          referenceTime: s.referenceTime,
          tags: s.tags,
          facts: s.facts.map((f) => ({ subject: f.subject, predicate: f.predicate, object: f.object, negated: f.negated, tense: f.tense, validFrom: f.validFrom ?? undefined })),
        });
      }
    }
  }
  return data;
}

function loadHeldBack(): CorpusPartData {
  const ids = new Set(readFileSync(HELD_BACK_IDS, 'utf8').split('\n').filter(Boolean));
  const files = readdirSync(TRAINING_CORPUS_DIR, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl')).sort();
  const data: CorpusPartData = { part: 'held-back', present: true, files, statements: [], scenarios: [], invalid: [], skipped: 0 };
  for (const name of files) {
    for (const s of readJsonl(join(TRAINING_CORPUS_DIR, name), statementSchema, data.invalid)) {
      if (!ids.has(s.id) || !s.content) continue;
      data.statements.push({
        id: s.id,
        content: s.content,
        referenceTime: s.referenceTime,
        tags: s.tags,
        facts: s.facts.map((f) => ({ subject: f.subject, predicate: f.predicate, object: f.object, negated: f.negated, tense: f.tense, validFrom: f.validFrom ?? undefined })),
      });
    }
  }
  if (data.statements.length !== ids.size) throw new Error(`held-back: ${data.statements.length} of ${ids.size} listed records found`);
  return data;
}
