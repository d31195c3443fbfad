import { Piscina } from 'piscina';
import type { Config } from '../../core/config.js';
import type { EntityExtractor, ExtractedEntity, ExtractedFact, ExtractionInput, FactExtractor } from '../../pipeline/types.js';
import type { ExtractionTask } from './extraction-thread.js';
import { threadModule } from './thread-module.js';

/** A non-negative hash of a text: both extractions of one write go to the same lane. */
function hashOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return hash & 0x7fffffff;
}

/**
 * Entity and fact extraction in worker threads, so a worker process's stage CPU work spreads
 * over the cores instead of sharing its one JavaScript thread with the queue and the store.
 * Opt-in (EXTRACTION_THREADS): the hand-off costs CPU (a message each way per extraction, and stage
 * workers that drain their queues, idle and are woken by Redis more often: ~60 more Redis commands
 * per write), measured at +1.5-2.5 ms per write on two cores, with fewer writes per second.
 * One single-thread pool per lane; a text always goes to the same lane, where the entity
 * extractor finds the facts the fact extractor just computed for it (recent-facts.ts).
 */
export class ExtractionPool implements EntityExtractor, FactExtractor {
  private readonly lanes: Piscina<ExtractionTask, ExtractedEntity[] | ExtractedFact[]>[];

  constructor(config: Config, threads: number) {
    const { filename, execArgv } = threadModule(import.meta.url, 'extraction-thread');
    this.lanes = Array.from(
      { length: Math.max(1, threads) },
      () =>
        new Piscina({
          filename,
          minThreads: 1,
          maxThreads: 1,
          idleTimeout: Number.POSITIVE_INFINITY,
          // Tasks arrive as messages: a thread blocked on Atomics.wait costs the queue thread a futex wake per task.
          atomics: 'disabled',
          workerData: { config },
          execArgv,
        }),
    );
  }

  extractEntities(input: ExtractionInput): Promise<ExtractedEntity[]> {
    return this.laneOf(input).run({ kind: 'entities', input }) as Promise<ExtractedEntity[]>;
  }

  extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return this.laneOf(input).run({ kind: 'facts', input }) as Promise<ExtractedFact[]>;
  }

  /** Resolves once every thread has loaded its extractors, so the first writes do not wait for that. */
  async ready(): Promise<void> {
    const input = { content: 'I live in Lisbon.', referenceTime: new Date() };
    await Promise.all(this.lanes.map((lane) => lane.run({ kind: 'facts', input })));
  }

  private laneOf(input: ExtractionInput) {
    return this.lanes[hashOf(input.content) % this.lanes.length];
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.destroy()));
  }
}
