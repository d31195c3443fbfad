import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { shippedModelDir } from '../../onnx.js';

/**
 * The shipped extractor: `model.onnx` (int8), `tokenizer.json` and `labels.json` (tag names, attribute heads,
 * word pattern, window size), as training/extraction/train.py writes them.
 */
export const DEFAULT_EXTRACTOR_DIR = shippedModelDir('extractor', 'labels.json');

const labelsSchema = z.object({
  format: z.literal(1),
  tags: z.array(z.string()).min(1),
  classes: z.array(z.string()).min(1),
  heads: z.record(z.string(), z.array(z.string()).min(2)),
  wordPattern: z.string().min(1),
  maxPieces: z.number().int().positive(),
  specialTokens: z.object({ cls: z.number().int(), sep: z.number().int() }),
});
export type ExtractorLabels = z.infer<typeof labelsSchema>;

export interface ExtractorFiles {
  modelPath: string;
  tokenizerPath: string;
  labels: ExtractorLabels;
}

export function extractorFilesProblem(dir: string): string | null {
  for (const file of ['model.onnx', 'tokenizer.json', 'labels.json']) {
    if (!existsSync(join(dir, file))) return `${dir} has no ${file}`;
  }
  return null;
}

export function readExtractorFiles(dir: string = DEFAULT_EXTRACTOR_DIR): ExtractorFiles {
  const problem = extractorFilesProblem(dir);
  if (problem) throw new Error(`EXTRACTOR=model: ${problem} (npm run train:extractor writes it)`);
  const labels = labelsSchema.parse(JSON.parse(readFileSync(join(dir, 'labels.json'), 'utf8')));
  return { modelPath: join(dir, 'model.onnx'), tokenizerPath: join(dir, 'tokenizer.json'), labels };
}
