import type { ExtractedFact, ExtractionInput } from '../../types.js';
import type { TracedFact, TracingFactExtractor } from '../rules/fact-extractor.js';
import { decodeFacts } from './decode.js';
import { WordTagger } from './tagger.js';

export interface ModelFactExtractorOptions {
  /** Folder with model.onnx, tokenizer.json and labels.json (default: the shipped models/extractor). */
  dir?: string;
  /** Intra-op threads of the session (default 1: the pipeline runs one extractor per thread). */
  threads?: number;
}

/**
 * The trained extractor (training/extraction/), int8 ONNX run by onnxruntime-node, loaded on first use.
 * One message per inference call (its windows together): the int8 model quantises activations per call, so
 * another message in the same call could change the numbers, and a write's facts must not depend on what
 * else was being written (retries and re-runs give the same facts).
 */
export class ModelFactExtractor implements TracingFactExtractor {
  private tagger?: Promise<WordTagger>;

  constructor(private readonly options: ModelFactExtractorOptions = {}) {}

  /** Loads the model now rather than on the first message; a failed load is tried again on the next call. */
  ready(): Promise<WordTagger> {
    this.tagger ??= WordTagger.load(this.options.dir, this.options.threads ?? 1).catch((error: unknown) => {
      this.tagger = undefined;
      throw error;
    });
    return this.tagger;
  }

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    const tagged = await (await this.ready()).tag(input.content);
    return decodeFacts(tagged, input.content, input.referenceTime);
  }

  async traceFacts(input: ExtractionInput): Promise<TracedFact[]> {
    return (await this.extractFacts(input)).map((fact) => ({ fact, pass: 'model' }));
  }
}
