import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession } from 'onnxruntime-node';
import { z } from 'zod';
import { importOnnxRuntime, shippedModelDir, type OnnxRuntime } from '../onnx.js';

/** Orders a query's candidate memory lines by relevance. */
export interface Reranker {
  /** One score per line, higher is more relevant; comparable only within one call. */
  score(query: string, lines: readonly string[]): Promise<number[]>;
}

/**
 * The shipped cross-encoder: `model.onnx` (int8), `tokenizer.json` and `config.json` (piece limits, special
 * tokens), as training/retrieval/train.py writes them.
 */
export const DEFAULT_RERANKER_DIR = shippedModelDir('reranker', 'config.json');

const configSchema = z.object({
  format: z.literal(1),
  maxQueryPieces: z.number().int().positive(),
  maxPieces: z.number().int().positive(),
  specialTokens: z.object({ cls: z.number().int(), sep: z.number().int() }),
});
type RerankerConfig = z.infer<typeof configSchema>;

/** Word pieces of memory lines are kept: the same memories come back as candidates query after query. */
const PIECE_CACHE_SIZE = 20_000;

/**
 * A cross-encoder run by onnxruntime-node: the query and each line go through the model together
 * (`[CLS] query [SEP] line [SEP]`, the query cut to its piece limit and the line to what is left), all lines of a
 * call in one batch, so a call's cost is bounded by its number of lines.
 */
export class CrossEncoderReranker implements Reranker {
  private readonly cache = new Map<string, number[]>();

  private constructor(
    private readonly runtime: OnnxRuntime,
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    private readonly config: RerankerConfig,
  ) {}

  static async load(dir: string = DEFAULT_RERANKER_DIR, threads = 1): Promise<CrossEncoderReranker> {
    for (const file of ['model.onnx', 'tokenizer.json', 'config.json']) {
      if (!existsSync(join(dir, file))) throw new Error(`RERANKER=model: ${dir} has no ${file} (npm run train:reranker writes it)`);
    }
    const config = configSchema.parse(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')));
    const runtime = await importOnnxRuntime('RERANKER=model');
    const session = await runtime.InferenceSession.create(readFileSync(join(dir, 'model.onnx')), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as object, {});
    return new CrossEncoderReranker(runtime, session, tokenizer, config);
  }

  async score(query: string, lines: readonly string[]): Promise<number[]> {
    if (lines.length === 0) return [];
    const { cls, sep } = this.config.specialTokens;
    const q = this.pieces(query).slice(0, this.config.maxQueryPieces);
    const rows = lines.map((line) => {
      const d = this.pieces(line).slice(0, Math.max(0, this.config.maxPieces - q.length - 3));
      return { ids: [cls, ...q, sep, ...d, sep], queryLength: q.length + 2 };
    });
    const width = Math.max(...rows.map((r) => r.ids.length));
    const ids = new BigInt64Array(rows.length * width);
    const mask = new BigInt64Array(rows.length * width);
    const types = new BigInt64Array(rows.length * width);
    rows.forEach((row, r) =>
      row.ids.forEach((id, t) => {
        ids[r * width + t] = BigInt(id);
        mask[r * width + t] = 1n;
        if (t >= row.queryLength) types[r * width + t] = 1n;
      }),
    );
    const shape = [rows.length, width];
    const output = await this.session.run({
      input_ids: new this.runtime.Tensor('int64', ids, shape),
      attention_mask: new this.runtime.Tensor('int64', mask, shape),
      token_type_ids: new this.runtime.Tensor('int64', types, shape),
    });
    return Array.from(output.scores.data as Float32Array);
  }

  private pieces(text: string): number[] {
    let ids = this.cache.get(text);
    if (!ids) {
      ids = this.tokenizer.encode(text, { add_special_tokens: false }).ids;
      if (this.cache.size >= PIECE_CACHE_SIZE) this.cache.clear();
      this.cache.set(text, ids);
    }
    return ids;
  }
}
