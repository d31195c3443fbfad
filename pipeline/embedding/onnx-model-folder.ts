import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The files of a sentence-embedding model folder for EMBEDDER=onnx, laid out as sentence-transformers
 * and Hugging Face Optimum write them: `model.onnx` (or `onnx/model.onnx`) and `tokenizer.json`, with
 * optional `tokenizer_config.json`, `1_Pooling/config.json` (mean pooling when absent) and
 * `sentence_bert_config.json` (its `max_seq_length` caps the tokens per text).
 */
export interface OnnxModelFolder {
  /** The folder's name, e.g. "all-MiniLM-L6-v2-int8": part of the embedder id. */
  name: string;
  modelPath: string;
  tokenizerPath: string;
  tokenizerConfigPath: string | null;
  pooling: 'mean' | 'cls';
  maxTokens: number;
}

const MODEL_CANDIDATES = ['model.onnx', join('onnx', 'model.onnx')];
/** BERT-family models have 512 positions; folders that say less are honoured. */
const DEFAULT_MAX_TOKENS = 512;

const poolingSchema = z.object({
  pooling_mode_cls_token: z.boolean().optional(),
  pooling_mode_mean_tokens: z.boolean().optional(),
});
const sentenceConfigSchema = z.object({ max_seq_length: z.number().int().positive().optional() });

/** Why `dir` cannot serve as ONNX_MODEL_DIR, or null when it can. Used by the configuration check. */
export function onnxModelFolderProblem(dir: string): string | null {
  if (!existsSync(dir)) return `${dir} does not exist`;
  if (!MODEL_CANDIDATES.some((file) => existsSync(join(dir, file)))) return `${dir} has no ${MODEL_CANDIDATES.join(' or ')}`;
  if (!existsSync(join(dir, 'tokenizer.json'))) return `${dir} has no tokenizer.json`;
  return null;
}

export function readOnnxModelFolder(dir: string): OnnxModelFolder {
  const problem = onnxModelFolderProblem(dir);
  if (problem) throw new Error(`ONNX_MODEL_DIR: ${problem}`);
  const path = (file: string) => (existsSync(join(dir, file)) ? join(dir, file) : null);
  const json = <T>(file: string, schema: z.ZodType<T>): T | null => {
    const found = path(file);
    return found ? schema.parse(JSON.parse(readFileSync(found, 'utf8'))) : null;
  };
  const pooling = json(join('1_Pooling', 'config.json'), poolingSchema);
  const sentenceConfig = json('sentence_bert_config.json', sentenceConfigSchema);
  return {
    name: basename(resolve(dir)),
    modelPath: MODEL_CANDIDATES.map(path).find((p) => p !== null)!,
    tokenizerPath: join(dir, 'tokenizer.json'),
    tokenizerConfigPath: path('tokenizer_config.json'),
    pooling: pooling?.pooling_mode_cls_token && !pooling.pooling_mode_mean_tokens ? 'cls' : 'mean',
    maxTokens: Math.min(sentenceConfig?.max_seq_length ?? DEFAULT_MAX_TOKENS, DEFAULT_MAX_TOKENS),
  };
}
