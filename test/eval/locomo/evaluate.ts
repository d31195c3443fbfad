/**
 * LoCoMo recall over HTTP: every turn of every conversation is written through POST /v1/batch
 * (one user per conversation, the session date as `timestamp`, `metadata.dia_id`), then every
 * question of categories 1–4 is asked through search (limit 10) and context (800 and 2,000 tokens).
 * Evidence recall = the share of a question's evidence turns whose memory reached the results or the
 * block, averaged over questions. A plain BM25 index over the same turns is scored in the same run:
 * its top 10 for search, and its best turns packed into the same budgets, counted the same way.
 */
import { estimateTokens } from '../../../core/queries/context.js';
import type { ApiClient } from '../../support/server.js';
import { Bm25Index } from './bm25.js';
import type { Conversation } from './dataset.js';

export const BUDGETS = [800, 2000] as const;
const BATCH = 500;

export interface RecallFigures {
  /** Share of questions whose first search result is an evidence turn. */
  search_any_at_1: number;
  /** Share of questions whose best memory in the 800-token context (first memory source) is an evidence turn. */
  context_any_at_1: number;
  search_recall_at_10: number;
  context_800: number;
  context_2000: number;
}

export interface LocomoReport {
  conversations: number;
  turns: number;
  questions: number;
  engram: RecallFigures & {
    /** Context recall counting also the evidence carried only by a fact derived from the turn. */
    context_800_with_facts: number;
    context_2000_with_facts: number;
    /** Average share of the block's sources that are facts, at 800 tokens. */
    fact_share_800: number;
  };
  bm25: RecallFigures;
  by_category: Record<string, { questions: number; engram: RecallFigures; bm25: RecallFigures }>;
  latency_ms: { search_p50: number; search_p95: number; context_p50: number; context_p95: number };
  ingest_seconds: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const round = (x: number) => Math.round(x * 1000) / 1000;
const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
};
const recallOf = (evidence: string[], reached: Set<string>) => evidence.filter((e) => reached.has(e)).length / evidence.length;

/** Top BM25 turns, in order, while their lines fit the budget (same line format and token counter as context). */
function packBm25(ranked: string[], lineOf: (dia: string) => string, budget: number): Set<string> {
  const maxChars = budget * 4;
  let used = 'Relevant memories:'.length;
  const chosen = new Set<string>();
  for (const dia of ranked) {
    const line = lineOf(dia);
    if (used + 1 + line.length > maxChars) continue;
    used += 1 + line.length;
    chosen.add(dia);
  }
  if (estimateTokens('x'.repeat(used)) > budget) throw new Error('BM25 packing exceeded its budget');
  return chosen;
}

async function ingest(api: ApiClient, conversations: Conversation[]): Promise<Map<string, Map<string, string>>> {
  const batches: string[] = [];
  // A data folder that already holds the conversations (run.ts --data-dir) is queried as it is.
  const stored = (await api.get(`/v1/memories?user_id=${encodeURIComponent(conversations[0].id)}&limit=1`)).body.memories?.length > 0;
  for (const c of stored ? [] : conversations) {
    for (let i = 0; i < c.turns.length; i += BATCH) {
      const items = c.turns.slice(i, i + BATCH).map((t) => ({ content: t.content, user_id: c.id, timestamp: t.timestamp, metadata: { dia_id: t.diaId } }));
      const res = await api.post('/v1/batch', { memories: items });
      if (res.status !== 202) throw new Error(`batch refused: ${res.status} ${JSON.stringify(res.body)}`);
      batches.push(res.body.id);
    }
  }
  for (const id of batches) {
    for (;;) {
      const body = (await api.get(`/v1/batch/${id}`)).body;
      if (body.status === 'completed') {
        if (body.failed) throw new Error(`batch ${id}: ${body.failed} items failed`);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  // memory id -> dia_id, per conversation
  const diaOf = new Map<string, Map<string, string>>();
  for (const c of conversations) {
    const map = new Map<string, string>();
    for (let offset = 0; ; offset += 200) {
      const page = (await api.get(`/v1/memories?user_id=${encodeURIComponent(c.id)}&limit=200&offset=${offset}`)).body.memories as any[];
      for (const m of page) map.set(m.id, m.metadata.dia_id);
      if (page.length < 200) break;
    }
    if (map.size !== c.turns.length) throw new Error(`${c.id}: ${map.size} memories listed for ${c.turns.length} turns`);
    diaOf.set(c.id, map);
  }
  return diaOf;
}

async function factSourcesOf(api: ApiClient, userId: string): Promise<Map<string, string[]>> {
  const sources = new Map<string, string[]>();
  for (let offset = 0; ; offset += 200) {
    const page = (await api.get(`/v1/facts?user_id=${encodeURIComponent(userId)}&limit=200&offset=${offset}`)).body;
    for (const f of page.facts) sources.set(f.id, f.source_memory_ids);
    if (offset + 200 >= page.total) break;
  }
  return sources;
}

export async function evaluateLocomo(api: ApiClient, conversations: Conversation[]): Promise<LocomoReport> {
  const started = Date.now();
  const diaOf = await ingest(api, conversations);
  const ingestSeconds = (Date.now() - started) / 1000;

  interface Row {
    category: number;
    engram: RecallFigures;
    bm25: RecallFigures;
    withFacts: [number, number];
    factShare: number;
  }
  const rows: Row[] = [];
  const searchMs: number[] = [];
  const contextMs: number[] = [];

  for (const c of conversations) {
    const dia = diaOf.get(c.id)!;
    const factSources = await factSourcesOf(api, c.id);
    const bm25 = new Bm25Index();
    const turnByDia = new Map(c.turns.map((t) => [t.diaId, t]));
    for (const t of c.turns) bm25.add(t.diaId, t.content);
    const lineOf = (d: string) => {
      const t = turnByDia.get(d)!;
      return `- [${t.timestamp.slice(0, 10)}] ${t.content}`;
    };

    for (const q of c.questions) {
      let t0 = performance.now();
      const search = await api.post('/v1/memories/search', { query: q.question, user_id: c.id, limit: 10 });
      searchMs.push(performance.now() - t0);
      if (search.status !== 200) throw new Error(`search: ${search.status} ${JSON.stringify(search.body)}`);
      const searchReached = new Set((search.body.results as any[]).map((r) => dia.get(r.id)!).filter(Boolean));
      const searchFirst = dia.get((search.body.results as any[])[0]?.id);
      let contextFirst: string | undefined;

      const contextRecall: number[] = [];
      const withFacts: number[] = [];
      let factShare = 0;
      for (const budget of BUDGETS) {
        t0 = performance.now();
        const ctx = await api.get(`/v1/context?query=${encodeURIComponent(q.question)}&user_id=${encodeURIComponent(c.id)}&token_budget=${budget}`);
        contextMs.push(performance.now() - t0);
        if (ctx.status !== 200) throw new Error(`context: ${ctx.status} ${JSON.stringify(ctx.body)}`);
        if (ctx.body.tokens > budget) throw new Error(`context over budget: ${ctx.body.tokens} > ${budget}`);
        const sources = ctx.body.sources as string[];
        const direct = new Set(sources.filter((s) => s.startsWith('mem_')).map((s) => dia.get(s)!).filter(Boolean));
        const viaFacts = new Set(direct);
        for (const s of sources) if (s.startsWith('fct_')) for (const m of factSources.get(s) ?? []) if (dia.has(m)) viaFacts.add(dia.get(m)!);
        contextRecall.push(recallOf(q.evidence, direct));
        withFacts.push(recallOf(q.evidence, viaFacts));
        if (budget === 800) contextFirst = dia.get(sources.find((s) => s.startsWith('mem_')) ?? '');
        if (budget === 800) factShare = sources.length ? sources.filter((s) => s.startsWith('fct_')).length / sources.length : 0;
      }

      const ranked = bm25.rank(q.question);
      rows.push({
        category: q.category,
        engram: {
          search_any_at_1: Number(q.evidence.includes(searchFirst ?? '')),
          context_any_at_1: Number(q.evidence.includes(contextFirst ?? '')),
          search_recall_at_10: recallOf(q.evidence, searchReached),
          context_800: contextRecall[0], context_2000: contextRecall[1] },
        bm25: {
          search_any_at_1: Number(q.evidence.includes(ranked[0])),
          context_any_at_1: Number(q.evidence.includes(ranked[0])),
          search_recall_at_10: recallOf(q.evidence, new Set(ranked.slice(0, 10))),
          context_800: recallOf(q.evidence, packBm25(ranked, lineOf, 800)),
          context_2000: recallOf(q.evidence, packBm25(ranked, lineOf, 2000)),
        },
        withFacts: [withFacts[0], withFacts[1]],
        factShare,
      });
    }
  }

  const figures = (rs: Row[], side: 'engram' | 'bm25'): RecallFigures => ({
    search_any_at_1: round(mean(rs.map((r) => r[side].search_any_at_1))),
    context_any_at_1: round(mean(rs.map((r) => r[side].context_any_at_1))),
    search_recall_at_10: round(mean(rs.map((r) => r[side].search_recall_at_10))),
    context_800: round(mean(rs.map((r) => r[side].context_800))),
    context_2000: round(mean(rs.map((r) => r[side].context_2000))),
  });
  const byCategory: LocomoReport['by_category'] = {};
  for (const category of [1, 2, 3, 4]) {
    const rs = rows.filter((r) => r.category === category);
    byCategory[String(category)] = { questions: rs.length, engram: figures(rs, 'engram'), bm25: figures(rs, 'bm25') };
  }
  return {
    conversations: conversations.length,
    turns: conversations.reduce((n, c) => n + c.turns.length, 0),
    questions: rows.length,
    engram: {
      ...figures(rows, 'engram'),
      context_800_with_facts: round(mean(rows.map((r) => r.withFacts[0]))),
      context_2000_with_facts: round(mean(rows.map((r) => r.withFacts[1]))),
      fact_share_800: round(mean(rows.map((r) => r.factShare))),
    },
    bm25: figures(rows, 'bm25'),
    by_category: byCategory,
    latency_ms: {
      search_p50: round(percentile(searchMs, 50)),
      search_p95: round(percentile(searchMs, 95)),
      context_p50: round(percentile(contextMs, 50)),
      context_p95: round(percentile(contextMs, 95)),
    },
    ingest_seconds: round(ingestSeconds),
  };
}
