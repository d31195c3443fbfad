import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { importOnnxRuntime, type OnnxRuntime } from '../onnx.js';
import type { Embedder } from '../types.js';
import { readOnnxModelFolder, type OnnxModelFolder } from './onnx-model-folder.js';
import { poolTokens } from './token-pooling.js';
import { loadTransformerTokenizer, type TokenizedText, type TransformerTokenizer } from './transformer-tokenizer.js';

/**
 * A local transformer sentence-embedding model (e.g. all-MiniLM-L6-v2) exported to ONNX, run by
 * onnxruntime-node on the CPU. Texts are tokenised with the folder's tokenizer.json, run in batches
 * padded to their longest text, pooled as the folder says (mean of the token states by default) and
 * L2-normalised. Deterministic on one machine.
 *
 * onnxruntime-node is an optional dependency imported only here, so the default embedder never loads it.
 */
export interface OnnxEmbedderOptions {
  modelDir: string;
  /** Texts per inference call (default 32). */
  batchSize?: number;
  /**
   * Threads of one inference call (default 1): the pipeline already runs one embedder per
   * pipeline thread, and more intra-op threads per session would oversubscribe the cores.
   */
  threads?: number;
}

const DEFAULT_BATCH_SIZE = 32;

export class OnnxEmbedder implements Embedder {
  private constructor(
    readonly id: string,
    readonly dimensions: number,
    private readonly model: SentenceModel,
  ) {}

  static async create(options: OnnxEmbedderOptions): Promise<OnnxEmbedder> {
    const folder = readOnnxModelFolder(options.modelDir);
    const runtime = await importOnnxRuntime('EMBEDDER=onnx');
    const modelBytes = readFileSync(folder.modelPath);
    const session = await runtime.InferenceSession.create(modelBytes, {
      intraOpNumThreads: options.threads ?? 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const tokenizer = loadTransformerTokenizer(folder.tokenizerPath, folder.tokenizerConfigPath, folder.maxTokens);
    const model = new SentenceModel(runtime, session, tokenizer, folder, options.batchSize ?? DEFAULT_BATCH_SIZE);
    // The same folder name can hold another export: the id names the file's content too.
    const digest = createHash('sha256').update(modelBytes).digest('hex').slice(0, 12);
    const [probe] = await model.embed(['dimension probe']);
    return new OnnxEmbedder(`onnx:${folder.name}@${digest}`, probe.length, model);
  }

  embed(texts: string[]): Promise<Float32Array[]> {
    return this.model.embed(texts);
  }
}

/** Tokenises, batches, runs and pools: one unit vector per text, in input order. */
class SentenceModel {
  constructor(
    private readonly runtime: OnnxRuntime,
    private readonly session: InferenceSession,
    private readonly tokenizer: TransformerTokenizer,
    private readonly folder: OnnxModelFolder,
    private readonly batchSize: number,
  ) {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const encoded = texts.map((text) => this.tokenizer.encode(text));
    // Batches of similar length waste less work on padding; results go back in input order.
    const order = encoded.map((_, i) => i).sort((a, b) => encoded[a].ids.length - encoded[b].ids.length);
    const vectors = new Array<Float32Array>(texts.length);
    for (let start = 0; start < order.length; start += this.batchSize) {
      const batch = order.slice(start, start + this.batchSize);
      const pooled = await this.runBatch(batch.map((i) => encoded[i]));
      batch.forEach((i, k) => (vectors[i] = pooled[k]));
    }
    return vectors;
  }

  private async runBatch(batch: TokenizedText[]): Promise<Float32Array[]> {
    const rows = batch.length;
    const length = Math.max(...batch.map((e) => e.ids.length));
    const ids = new BigInt64Array(rows * length);
    const mask = new BigInt64Array(rows * length);
    const types = new BigInt64Array(rows * length);
    batch.forEach((e, row) => {
      for (let t = 0; t < e.ids.length; t++) {
        ids[row * length + t] = BigInt(e.ids[t]);
        mask[row * length + t] = 1n;
        types[row * length + t] = BigInt(e.typeIds[t]);
      }
    });
    const available = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const feeds: Record<string, Tensor> = {};
    for (const name of this.session.inputNames) {
      if (!(name in available)) throw new Error(`ONNX model ${this.folder.name} wants an input named ${name}, which Engram cannot provide`);
      feeds[name] = new this.runtime.Tensor('int64', available[name as keyof typeof available], [rows, length]);
    }
    const outputs = await this.session.run(feeds);
    const output = outputs[this.session.outputNames[0]];
    return poolTokens(output.data as Float32Array, output.dims, batch.map((e) => e.ids.length), this.folder.pooling);
  }
}

export const createOnnxEmbedder = (options: OnnxEmbedderOptions) => OnnxEmbedder.create(options);
