import { memories, queries } from './dataset.js';
import { summarize, type RankedResult, type RetrievalMetrics } from './metrics.js';
import type { ApiClient } from '../../support/server.js';

export interface HttpRetrievalReport {
  search: RetrievalMetrics;
  context: RetrievalMetrics;
}

/**
 * Loads the evaluation memories through POST /v1/batch, waits for the pipeline,
 * then ranks every query through the public read paths:
 * - search: the hits' memory ids in order;
 * - context: the block's sources in order, facts mapped to the memories they came from.
 */
export async function evaluateOverHttp(api: ApiClient, options: { tokenBudget?: number } = {}): Promise<HttpRetrievalReport> {
  const batch = (await api.post('/v1/batch', { memories: memories.map((m) => ({ content: m.content, user_id: m.user_id, metadata: { key: m.key } })) })).body;
  for (;;) {
    const body = (await api.get(`/v1/batch/${batch.id}`)).body;
    if (body.status === 'completed') break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const keyOf = new Map<string, string>();
  for (const user of new Set(memories.map((m) => m.user_id))) {
    const list = (await api.get(`/v1/memories?user_id=${user}&limit=200`)).body.memories;
    for (const m of list) keyOf.set(m.id, m.metadata.key);
  }
  const factSources = new Map<string, string[]>();
  for (const user of new Set(memories.map((m) => m.user_id))) {
    for (let offset = 0; ; offset += 200) {
      const page = (await api.get(`/v1/facts?user_id=${user}&limit=200&offset=${offset}`)).body;
      for (const f of page.facts) factSources.set(f.id, f.source_memory_ids);
      if (offset + 200 >= page.total) break;
    }
  }

  const search: RankedResult[] = [];
  const context: RankedResult[] = [];
  for (const q of queries) {
    const hits = (await api.post('/v1/memories/search', { query: q.query, user_id: q.user_id, limit: 10 })).body.results;
    search.push({ ranked: hits.map((h: any) => keyOf.get(h.id)!), relevant: q.relevant });
    const budget = options.tokenBudget ?? 800;
    const ctx = (await api.get(`/v1/context?query=${encodeURIComponent(q.query)}&user_id=${q.user_id}&token_budget=${budget}`)).body;
    const ranked: string[] = [];
    for (const source of ctx.sources as string[]) {
      const ids = source.startsWith('fct_') ? (factSources.get(source) ?? []) : [source];
      for (const id of ids) {
        const key = keyOf.get(id);
        if (key && !ranked.includes(key)) ranked.push(key);
      }
    }
    context.push({ ranked, relevant: q.relevant });
  }
  return { search: summarize(search), context: summarize(context) };
}
