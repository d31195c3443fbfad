import type { Config } from './config.js';
import type { Store } from '../storage/types.js';
import type { VectorIndex } from '../storage/vector/types.js';
import type { PipelineDeps } from '../pipeline/write/stages.js';
import type { Embedder, EntityExtractor, ExtractionInput, FactExtractor } from '../pipeline/types.js';
import { createContradictionJudge } from '../pipeline/contradiction/index.js';
import { factRules } from '../pipeline/extraction/fact-rules.js';

/**
 * The stage dependencies over an opened store and vector index; shared by the API
 * process and the pipeline threads (which load this and not the whole composition root).
 */
export function createPipelineDeps(
  config: Config,
  store: Store,
  vectors: VectorIndex,
  embedder: Embedder,
  extractors: { entityExtractor: EntityExtractor; factExtractor: FactExtractor } = lazyExtractors(config),
): PipelineDeps {
  return {
    store,
    vectors,
    embedder,
    ...extractors,
    judge: createContradictionJudge(config),
    rules: factRules,
  };
}

/** Extractors loaded now: for a process about to run stages (BullMQ workers, stages on the API thread). */
export async function loadExtractors(config: Config): Promise<{ entityExtractor: EntityExtractor; factExtractor: FactExtractor }> {
  const m = await import('../pipeline/extraction/index.js');
  return { entityExtractor: m.createEntityExtractor(config), factExtractor: m.createFactExtractor(config) };
}

/**
 * The extractors load their language models (compromise, chrono) on first use: an API process
 * whose stages run in pipeline threads or other processes never pays for them at start-up.
 */
function lazyExtractors(config: Config): { entityExtractor: EntityExtractor; factExtractor: FactExtractor } {
  let loaded: Promise<{ entity: EntityExtractor; fact: FactExtractor }> | null = null;
  const load = () =>
    (loaded ??= import('../pipeline/extraction/index.js').then((m) => ({ entity: m.createEntityExtractor(config), fact: m.createFactExtractor(config) })));
  return {
    entityExtractor: { extractEntities: async (input: ExtractionInput) => (await load()).entity.extractEntities(input) },
    factExtractor: { extractFacts: async (input: ExtractionInput) => (await load()).fact.extractFacts(input) },
  };
}
