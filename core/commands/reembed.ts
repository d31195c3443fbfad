import type { Embedder } from '../../pipeline/types.js';
import type { Store } from '../../storage/types.js';
import { metadataTerms, type VectorIndex } from '../../storage/vector/types.js';
import { EMBEDDER_SETTING, embedderSignature } from '../embedder-guard.js';

const PROGRESS_SETTING = 'reembed_progress';
const PAGE = 256;

export interface ReembedProgress {
  embedder: string;
  workspaces: string[];
  /** Index into `workspaces` and offset within it: where an interrupted run resumes. */
  workspace: number;
  offset: number;
  done: number;
}

/**
 * Re-embeds every active memory with `embedder`, recording progress in the
 * store so an interrupted run resumes where it stopped; switches the store's
 * recorded embedder only when every vector has been replaced.
 */
export async function reembedAll(
  store: Store,
  vectors: VectorIndex,
  embedder: Embedder,
  onProgress: (p: ReembedProgress & { total: number }) => void = () => undefined,
): Promise<{ embedder: string; reembedded: number }> {
  const signature = embedderSignature(embedder);
  const saved = await store.settings.get(PROGRESS_SETTING);
  let progress: ReembedProgress = saved ? JSON.parse(saved) : { embedder: signature, workspaces: [], workspace: 0, offset: 0, done: 0 };
  if (progress.embedder !== signature || progress.workspaces.length === 0) {
    progress = { embedder: signature, workspaces: (await store.workspaces.list()).map((w) => w.id), workspace: 0, offset: 0, done: 0 };
  }
  let total = 0;
  for (const workspaceId of progress.workspaces) total += await store.memories.count({ workspaceId });

  while (progress.workspace < progress.workspaces.length) {
    const workspaceId = progress.workspaces[progress.workspace];
    // Oldest-first paging would shift under concurrent adds; the server is stopped while this runs.
    const page = await store.memories.list({ workspaceId }, { limit: PAGE, offset: progress.offset });
    if (page.items.length) {
      const embedded = await embedder.embed(page.items.map((m) => m.content));
      await vectors.upsert(
        page.items.map((m, i) => ({
          id: m.id,
          workspaceId,
          agentId: m.agentId,
          userId: m.userId,
          runId: m.runId,
          metadataTerms: metadataTerms(m.metadata),
          vector: embedded[i],
          text: m.content,
        })),
      );
      progress.offset += page.items.length;
      progress.done += page.items.length;
    }
    if (page.items.length < PAGE) {
      progress.workspace++;
      progress.offset = 0;
    }
    await store.settings.set(PROGRESS_SETTING, JSON.stringify(progress));
    onProgress({ ...progress, total });
  }
  await store.settings.set(EMBEDDER_SETTING, signature);
  await store.settings.set(PROGRESS_SETTING, '');
  return { embedder: signature, reembedded: progress.done };
}
