import { workerData } from 'node:worker_threads';
import type { Config } from '../../core/config.js';
import { createEntityExtractor, createFactExtractor } from '../../pipeline/extraction/index.js';
import type { ExtractedEntity, ExtractedFact, ExtractionInput } from '../../pipeline/types.js';

/**
 * An extraction thread (run by ExtractionPool): the entity and fact extractors, loaded once
 * per thread. The fact extractor keeps the rule facts of recent texts, which the entity
 * extractor reuses, so a write's two extractions share a thread.
 */
const config = (workerData as { config: Config }).config;
const entityExtractor = createEntityExtractor(config);
const factExtractor = createFactExtractor(config);

export interface ExtractionTask {
  kind: 'entities' | 'facts';
  input: ExtractionInput;
}

export default function extract({ kind, input }: ExtractionTask): Promise<ExtractedEntity[] | ExtractedFact[]> {
  return kind === 'entities' ? entityExtractor.extractEntities(input) : factExtractor.extractFacts(input);
}
