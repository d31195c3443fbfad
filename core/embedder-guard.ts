import type { Config } from './config.js';
import { GLOVE_EMBEDDER_ID } from '../pipeline/embedding/glove-embedder.js';
import type { Embedder } from '../pipeline/types.js';
import type { Store } from '../storage/types.js';

export const EMBEDDER_SETTING = 'embedder';

export const embedderSignature = (embedder: Embedder) => `${embedder.id}/${embedder.dimensions}`;

export class EmbedderMismatchError extends Error {}

/**
 * Vectors from different embedders are not comparable. The store records the
 * embedder that produced its vectors; starting with another one is refused.
 */
export async function checkEmbedderMatchesStore(store: Store, embedder: Embedder): Promise<void> {
  const current = embedderSignature(embedder);
  const recorded = await store.settings.get(EMBEDDER_SETTING);
  if (recorded === null) {
    await store.settings.set(EMBEDDER_SETTING, current);
    return;
  }
  if (recorded !== current) {
    throw new EmbedderMismatchError(
      `This data folder's vectors were made by embedder ${recorded}, but the configuration selects ${current}. ` +
        `Start with the original EMBEDDER settings, or re-embed everything with: npm run --silent admin -- reembed`,
    );
  }
}

export type EmbedderChoice = Exclude<Config['EMBEDDER'], 'auto'>;

/**
 * What EMBEDDER=auto means for this store: `model` for a new store, and for a store whose vectors GloVe made (the
 * default before `model`) `glove`, so an upgrade keeps working on its vectors until the operator re-embeds
 * (`reembedding`: the re-embed command itself moves the store to `model`). Other settings stand as given.
 */
export async function resolveEmbedderChoice(store: Store, setting: Config['EMBEDDER'], reembedding = false): Promise<EmbedderChoice> {
  if (setting !== 'auto') return setting;
  if (reembedding) return 'model';
  const recorded = await store.settings.get(EMBEDDER_SETTING);
  return recorded?.startsWith(`${GLOVE_EMBEDDER_ID}/`) ? 'glove' : 'model';
}
