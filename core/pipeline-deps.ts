import type { Config } from './config.js';
import type { Store } from '../storage/types.js';
import type { VectorIndex } from '../storage/vector/types.js';
import type { PipelineDeps } from '../pipeline/write/stages.js';
import type { Embedder } from '../pipeline/types.js';
import { createEntityExtractor, createFactExtractor } from '../pipeline/extraction/index.js';
import { createContradictionJudge } from '../pipeline/contradiction/index.js';
import { factRules } from '../pipeline/extraction/fact-rules.js';

/**
 * The stage dependencies over an opened store and vector index; shared by the API
 * process and the pipeline threads (which load this and not the whole composition root).
 */
export function createPipelineDeps(config: Config, store: Store, vectors: VectorIndex, embedder: Embedder): PipelineDeps {
  return {
    store,
    vectors,
    embedder,
    entityExtractor: createEntityExtractor(config),
    factExtractor: createFactExtractor(config),
    judge: createContradictionJudge(config),
    rules: factRules,
  };
}
