import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Reranker } from '../pipeline/retrieval/reranker.js';

/**
 * The context reranker, loading in the background from start-up. Context never waits for it and never fails
 * because of it: until it has loaded, or when it cannot load or run, context keeps its fused order (logged once).
 */
export function startReranker(config: Config, logger: Logger): Reranker | undefined {
  if (config.RERANKER === 'off') return undefined;
  let model: Reranker | null = null;
  let warned = false;
  const warn = (error: unknown, what: string) => {
    if (!warned) logger.warn({ err: error }, `${what}; context keeps its fused order`);
    warned = true;
  };
  void import('../pipeline/retrieval/reranker.js')
    .then((m) => m.CrossEncoderReranker.load())
    .then((loaded) => (model = loaded))
    .catch((error) => warn(error, 'the context reranker could not load'));
  return {
    async score(query, lines) {
      if (!model) return lines.map(() => 0);
      try {
        return await model.score(query, lines);
      } catch (error) {
        warn(error, 'the context reranker failed');
        return lines.map(() => 0);
      }
    },
  };
}
