import { z } from 'zod';
import { shippedModelDir } from '../onnx.js';
import { loadPairEncoder, runPairs, type PairEncoder } from '../pair-encoder.js';
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
    private readonly encoder: PairEncoder,
    private readonly config: ChangeConfig,
  ) {}

  get endedThreshold(): number {
    return this.config.endedThreshold;
  }

  static async load(dir: string = DEFAULT_CHANGE_DIR, threads = 1): Promise<PairChangeClassifier> {
    const encoder = await loadPairEncoder(dir, 'JUDGE=model', 'npm run train:change', threads);
    return new PairChangeClassifier(encoder, configSchema.parse(encoder.config));
  }

  async classify(message: string, facts: readonly HeldFact[]): Promise<ChangeScores[]> {
    if (facts.length === 0) return [];
    const text = this.pieces(message);
    const rows = facts.map((fact) => {
      const first = this.pieces(factLine(fact)).slice(0, this.config.maxFactPieces);
      return { first, second: text.slice(0, Math.max(0, this.config.maxPieces - first.length - 3)) };
    });
    const logits = (await runPairs(this.encoder, this.config.specialTokens, rows, 'logits')).data as Float32Array;
    return rows.map((_, r) => {
      const [holds, ended, willEnd] = softmax(logits.subarray(r * 3, r * 3 + 3));
      return { holds, ended, willEnd };
    });
  }

  private pieces(text: string): number[] {
    return this.encoder.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }
}

function softmax(values: Float32Array): number[] {
  const max = Math.max(...values);
  const exps = Array.from(values, (v) => Math.exp(v - max));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / sum);
}
