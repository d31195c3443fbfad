import type { Config } from './config.js';
import type { Logger } from './logger.js';
import type { Reranker } from '../pipeline/retrieval/reranker.js';

/** One load per process: every server of a process (tests start many) shares the read-only model. */
let shared: Promise<Reranker | null> | null = null;

/**
 * The context reranker. It loads on the first context request, which waits for it (a few hundred milliseconds
 * once), so a context is always ordered the same way. Context never fails because of it: when the model cannot
 * load or run, context keeps its fused order (logged once).
 */
export function contextReranker(config: Config, logger: Logger): Reranker | undefined {
  if (config.RERANKER === 'off') return undefined;
  let warned = false;
  const warn = (error: unknown, what: string) => {
    if (!warned) logger.warn({ err: error }, `${what}; context keeps its fused order`);
    warned = true;
  };
  const load = () =>
    (shared ??= import('../pipeline/retrieval/reranker.js')
      .then((m) => m.CrossEncoderReranker.load())
      .catch((error) => {
        warn(error, 'the context reranker could not load');
        return null;
      }));
  return {
    async score(query, lines) {
      const model = await load();
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
