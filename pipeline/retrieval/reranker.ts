import { z } from 'zod';
import { shippedModelDir } from '../onnx.js';
import { loadPairEncoder, runPairs, type PairEncoder } from '../pair-encoder.js';

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
    private readonly encoder: PairEncoder,
    private readonly config: RerankerConfig,
  ) {}

  static async load(dir: string = DEFAULT_RERANKER_DIR, threads = 1): Promise<CrossEncoderReranker> {
    const encoder = await loadPairEncoder(dir, 'RERANKER=model', 'npm run train:reranker', threads);
    return new CrossEncoderReranker(encoder, configSchema.parse(encoder.config));
  }

  async score(query: string, lines: readonly string[]): Promise<number[]> {
    if (lines.length === 0) return [];
    const q = this.pieces(query).slice(0, this.config.maxQueryPieces);
    const rows = lines.map((line) => ({ first: q, second: this.pieces(line).slice(0, Math.max(0, this.config.maxPieces - q.length - 3)) }));
    return Array.from((await runPairs(this.encoder, this.config.specialTokens, rows, 'scores')).data as Float32Array);
  }

  private pieces(text: string): number[] {
    let ids = this.cache.get(text);
    if (!ids) {
      ids = this.encoder.tokenizer.encode(text, { add_special_tokens: false }).ids;
      if (this.cache.size >= PIECE_CACHE_SIZE) this.cache.clear();
      this.cache.set(text, ids);
    }
    return ids;
  }
}
