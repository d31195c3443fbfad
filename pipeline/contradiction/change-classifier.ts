import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession } from 'onnxruntime-node';
import { z } from 'zod';
import { importOnnxRuntime, shippedModelDir, type OnnxRuntime } from '../onnx.js';
import type { HeldFact } from '../types.js';

/** What a message does to one held fact: probabilities of the three outcomes. */
export interface ChangeScores {
  holds: number;
  ended: number;
  willEnd: number;
}

/** Decides, for a new message and facts the service holds, which of them the message ends. */
export interface ChangeClassifier {
  /** The probability at or above which `ended` ends a fact. */
  readonly endedThreshold: number;
  classify(message: string, facts: readonly HeldFact[]): Promise<ChangeScores[]>;
}

/**
 * The shipped pair classifier: `model.onnx` (int8), `tokenizer.json` and `config.json`, as
 * training/change/train.py writes them.
 */
export const DEFAULT_CHANGE_DIR = shippedModelDir('change', 'config.json');

const configSchema = z.object({
  format: z.literal(1),
  labels: z.tuple([z.literal('holds'), z.literal('ended'), z.literal('will_end')]),
  maxFactPieces: z.number().int().positive(),
  maxPieces: z.number().int().positive(),
  specialTokens: z.object({ cls: z.number().int(), sep: z.number().int() }),
  endedThreshold: z.number().min(0).max(1),
});
type ChangeConfig = z.infer<typeof configSchema>;

/** The fact's words as training wrote them (training/change/train.py `fact_line`). */
export function factLine(fact: HeldFact): string {
  const line = `${fact.subject} ${fact.predicate.replaceAll('_', ' ')} ${fact.object}`;
  return fact.plannedFor ? `${line} (planned for ${fact.plannedFor.slice(0, 10)})` : line;
}

/**
 * A cross-encoder run by onnxruntime-node: each held fact and the message go through the model together
 * (`[CLS] fact [SEP] message [SEP]`), all facts of a call in one batch. A call's facts are those one message
 * speaks of in one user scope, a set fixed by the scope's committed state, so a retried write asks the same batch
 * and gets the same answer.
 */
export class PairChangeClassifier implements ChangeClassifier {
  private constructor(
    private readonly runtime: OnnxRuntime,
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly config: ChangeConfig,
  ) {}

  get endedThreshold(): number {
    return this.config.endedThreshold;
  }

  static async load(dir: string = DEFAULT_CHANGE_DIR, threads = 1): Promise<PairChangeClassifier> {
    for (const file of ['model.onnx', 'tokenizer.json', 'config.json']) {
      if (!existsSync(join(dir, file))) throw new Error(`JUDGE=model: ${dir} has no ${file} (npm run train:change writes it)`);
    }
    const config = configSchema.parse(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')));
    const runtime = await importOnnxRuntime('JUDGE=model');
    const session = await runtime.InferenceSession.create(readFileSync(join(dir, 'model.onnx')), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as object, {});
    return new PairChangeClassifier(runtime, session, tokenizer, config);
  }

  async classify(message: string, facts: readonly HeldFact[]): Promise<ChangeScores[]> {
    if (facts.length === 0) return [];
    const { cls, sep } = this.config.specialTokens;
    const text = this.pieces(message);
    const rows = facts.map((fact) => {
      const f = this.pieces(factLine(fact)).slice(0, this.config.maxFactPieces);
      const m = text.slice(0, Math.max(0, this.config.maxPieces - f.length - 3));
      return { ids: [cls, ...f, sep, ...m, sep], factLength: f.length + 2 };
    });
    const width = Math.max(...rows.map((r) => r.ids.length));
    const ids = new BigInt64Array(rows.length * width);
    const mask = new BigInt64Array(rows.length * width);
    const types = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) =>
      row.ids.forEach((id, t) => {
        ids[r * width + t] = BigInt(id);
        mask[r * width + t] = 1n;
        if (t >= row.factLength) types[r * width + t] = 1n;
      }),
    );
    const shape = [rows.length, width];
    const output = await this.session.run({
      input_ids: new this.runtime.Tensor('int64', ids, shape),
      attention_mask: new this.runtime.Tensor('int64', mask, shape),
      token_type_ids: new this.runtime.Tensor('int64', types, shape),
    });
    const logits = output.logits.data as Float32Array;
    return rows.map((_, r) => {
      const [holds, ended, willEnd] = softmax(logits.subarray(r * 3, r * 3 + 3));
      return { holds, ended, willEnd };
    });
  }

  private pieces(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }
}

function softmax(values: Float32Array): number[] {
  const max = Math.max(...values);
  const exps = Array.from(values, (v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
