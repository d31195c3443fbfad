import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession } from 'onnxruntime-node';
import { importOnnxRuntime, type OnnxRuntime } from '../../onnx.js';
import { readExtractorFiles, type ExtractorLabels } from './model-files.js';
import { splitWords, windows, type Word } from './words.js';

/** One word's prediction: its tag, that tag's probability, and each attribute head's probabilities. */
export interface TaggedWord extends Word {
  tag: string;
  tagProbability: number;
  heads: Record<string, number[]>;
}

const BATCH_WINDOWS = 32;
/** Longer texts are cut here: 16,000 characters are about 130 windows, a bounded amount of work. */
export const MAX_CHARACTERS = 20_000;
const PIECE_CACHE_SIZE = 50_000;

function softmax(values: ArrayLike<number>, from: number, count: number): number[] {
  let max = -Infinity;
  for (let i = 0; i < count; i++) max = Math.max(max, values[from + i]);
  const out = new Array<number>(count);
  let sum = 0;
  for (let i = 0; i < count; i++) sum += out[i] = Math.exp(values[from + i] - max);
  for (let i = 0; i < count; i++) out[i] /= sum;
  return out;
}

/**
 * Runs the token-classification model over a whole message: words are split as in training, each word
 * becomes its word pieces (cached), a long message is cut into windows at sentence ends, and its windows run
 * together. A word's prediction is read at its first piece.
 */
export class WordTagger {
  private readonly pieceCache = new Map<string, number[]>();
  private readonly pattern: RegExp;

  private constructor(
    private readonly runtime: OnnxRuntime,
    private readonly session: InferenceSession,
    private readonly tokenizer: Tokenizer,
    readonly labels: ExtractorLabels,
  ) {
    this.pattern = new RegExp(labels.wordPattern, 'gu');
  }

  static async load(dir?: string, threads = 1): Promise<WordTagger> {
    const files = readExtractorFiles(dir);
    const runtime = await importOnnxRuntime('EXTRACTOR=model');
    const session = await runtime.InferenceSession.create(readFileSync(files.modelPath), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const tokenizer = new Tokenizer(JSON.parse(readFileSync(files.tokenizerPath, 'utf8')) as object, {});
    return new WordTagger(runtime, session, tokenizer, files.labels);
  }

  /** One message's words with their predictions; its windows run together, in batches of at most 32. */
  async tag(raw: string): Promise<TaggedWord[]> {
    const text = raw.slice(0, MAX_CHARACTERS);
    const words = splitWords(text, this.pattern);
    const pieces = words.map((w) => this.pieces(w.text));
    const all = windows(words, text, pieces.map((p) => p.length), this.labels.maxPieces);
    const tagged = new Array<TaggedWord>(words.length);
    for (let start = 0; start < all.length; start += BATCH_WINDOWS) {
      await this.runBatch(all.slice(start, start + BATCH_WINDOWS), words, pieces, tagged);
    }
    return tagged;
  }

  private pieces(word: string): number[] {
    let ids = this.pieceCache.get(word);
    if (!ids) {
      ids = this.tokenizer.encode(word, { add_special_tokens: false }).ids.slice(0, this.labels.maxPieces);
      if (ids.length === 0) ids = [this.tokenizer.token_to_id('[UNK]') ?? 100];
      if (this.pieceCache.size >= PIECE_CACHE_SIZE) this.pieceCache.clear();
      this.pieceCache.set(word, ids);
    }
    return ids;
  }

  private async runBatch(batch: number[][], words: readonly Word[], pieces: readonly number[][], tagged: TaggedWord[]): Promise<void> {
    const { cls, sep } = this.labels.specialTokens;
    const sequences = batch.map((window) => {
      const ids = [cls];
      const first: number[] = [];
      for (const i of window) {
        first.push(ids.length);
        ids.push(...pieces[i]);
      }
      ids.push(sep);
      return { ids, first };
    });
    const rows = sequences.length;
    const length = Math.max(...sequences.map((s) => s.ids.length));
    const ids = new BigInt64Array(rows * length);
    const mask = new BigInt64Array(rows * length);
    sequences.forEach((s, row) =>
      s.ids.forEach((id, t) => {
        ids[row * length + t] = BigInt(id);
        mask[row * length + t] = 1n;
      }),
    );
    const shape = [rows, length];
    const output = await this.session.run({
      input_ids: new this.runtime.Tensor('int64', ids, shape),
      attention_mask: new this.runtime.Tensor('int64', mask, shape),
      token_type_ids: new this.runtime.Tensor('int64', new BigInt64Array(rows * length), shape),
    });
    const logits = output.logits.data as Float32Array;
    const width = output.logits.dims[2];
    const tags = this.labels.tags;
    const heads = Object.entries(this.labels.heads);
    batch.forEach((window, row) => {
      window.forEach((wordIndex, k) => {
        const at = (row * length + sequences[row].first[k]) * width;
        const tagProbabilities = softmax(logits, at, tags.length);
        let best = 0;
        for (let t = 1; t < tags.length; t++) if (tagProbabilities[t] > tagProbabilities[best]) best = t;
        let offset = at + tags.length;
        const headValues: Record<string, number[]> = {};
        for (const [name, values] of heads) {
          headValues[name] = softmax(logits, offset, values.length);
          offset += values.length;
        }
        tagged[wordIndex] = { ...words[wordIndex], tag: tags[best], tagProbability: tagProbabilities[best], heads: headValues };
      });
    });
  }
}
