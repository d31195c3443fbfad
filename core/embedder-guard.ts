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
