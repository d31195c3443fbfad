import type { ExtractedFact, ExtractionInput, FactExtractor } from '../../types.js';
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
 * else was being written (retries and re-runs give the same facts). Calls run one after another.
 */
export class ModelFactExtractor implements FactExtractor {
  private tagger?: Promise<WordTagger>;
  private waiting: { input: ExtractionInput; resolve: (facts: ExtractedFact[]) => void; reject: (error: unknown) => void }[] = [];
  private running = false;

  constructor(private readonly options: ModelFactExtractorOptions = {}) {}

  /** Loads the model now rather than on the first message. */
  ready(): Promise<WordTagger> {
    return (this.tagger ??= WordTagger.load(this.options.dir, this.options.threads ?? 1));
  }

  extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      const tagger = await this.ready().catch((error: unknown) => {
        for (const w of this.waiting.splice(0)) w.reject(error);
        this.tagger = undefined;
        return undefined;
      });
      while (tagger && this.waiting.length > 0) {
        const waiting = this.waiting.shift()!;
        try {
          const [tagged] = await tagger.tag([waiting.input.content]);
          waiting.resolve(decodeFacts(tagged, waiting.input.content, waiting.input.referenceTime));
        } catch (error) {
          waiting.reject(error);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
