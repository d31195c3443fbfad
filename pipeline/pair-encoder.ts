import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { importOnnxRuntime, type OnnxRuntime } from './onnx.js';

/**
 * What the shipped cross-encoders share (the context reranker, the change classifier): a folder with `model.onnx`,
 * `tokenizer.json` and `config.json` as a training script writes it, and rows of `[CLS] first [SEP] second [SEP]`
 * run as one padded batch.
 */
export interface PairEncoder {
  runtime: OnnxRuntime;
  session: InferenceSession;
  tokenizer: Tokenizer;
  /** The folder's config.json, parsed but not yet validated. */
  config: unknown;
}

/** Loads a shipped pair model; `setting` names the configuration that needs it in errors ("JUDGE=model"). */
export async function loadPairEncoder(dir: string, setting: string, retrain: string, threads = 1): Promise<PairEncoder> {
  for (const file of ['model.onnx', 'tokenizer.json', 'config.json']) {
    if (!existsSync(join(dir, file))) throw new Error(`${setting}: ${dir} has no ${file} (${retrain} writes it)`);
  }
  const runtime = await importOnnxRuntime(setting);
  const session = await runtime.InferenceSession.create(readFileSync(join(dir, 'model.onnx')), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(dir, 'tokenizer.json'), 'utf8')) as object, {});
  return { runtime, session, tokenizer, config: JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) };
}

/** One row: the first text's pieces and the second's, each already cut to its limit. */
export interface PairRow {
  first: readonly number[];
  second: readonly number[];
}

/** Runs the rows as one batch (padded to the longest, the second text as token type 1); returns the named output. */
export async function runPairs(encoder: PairEncoder, special: { cls: number; sep: number }, rows: readonly PairRow[], output: string): Promise<Tensor> {
  const encoded = rows.map(({ first, second }) => ({ ids: [special.cls, ...first, special.sep, ...second, special.sep], firstLength: first.length + 2 }));
  const width = Math.max(...encoded.map((r) => r.ids.length));
  const ids = new BigInt64Array(rows.length * width);
  const mask = new BigInt64Array(rows.length * width);
  const types = new BigInt64Array(rows.length * width);
  encoded.forEach((row, r) =>
    row.ids.forEach((id, t) => {
      ids[r * width + t] = BigInt(id);
      mask[r * width + t] = 1n;
      if (t >= row.firstLength) types[r * width + t] = 1n;
    }),
  );
  const shape = [rows.length, width];
  const { Tensor } = encoder.runtime;
  const outputs = await encoder.session.run({
    input_ids: new Tensor('int64', ids, shape),
    attention_mask: new Tensor('int64', mask, shape),
    token_type_ids: new Tensor('int64', types, shape),
  });
  return outputs[output];
}
