import { createHash } from 'node:crypto';
import { checkAgentReadable } from '../commands/agents.js';
import { cosine } from '../../pipeline/embedding/index.js';
import { readAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { FactRecord } from '../../storage/types.js';
import { PREDICATE_FAMILIES, type Embedder } from '../../pipeline/types.js';
import { embedQuery, nearestMemories, vectorFilterOf } from './search.js';

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_TOKEN_BUDGET = 800;
/** Live facts considered per request (the most recent when a scope has more), as many as a profile shows. */
const MAX_FACTS = 200;
const MAX_MEMORIES = 30;
/** Shortest excerpt of a memory worth including when the whole memory does not fit. */
const MIN_EXCERPT_CHARS = 60;

export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

/** Fact texts never change, so their vectors are cached by id (a cache only: misses are recomputed). */
class FactEmbeddingCache {
  private readonly vectors = new Map<string, Float32Array>();
  constructor(private readonly max: number) {}

  async get(embedder: Embedder, facts: FactRecord[]): Promise<Float32Array[]> {
    const missing = facts.filter((f) => !this.vectors.has(this.key(embedder, f)));
    if (missing.length) {
      const computed = await embedder.embed(missing.map(factText));
      missing.forEach((f, i) => this.vectors.set(this.key(embedder, f), computed[i]));
      // Map iteration order is insertion order: drop the oldest entries.
      for (const key of this.vectors.keys()) {
        if (this.vectors.size <= this.max) break;
        this.vectors.delete(key);
      }
    }
    return facts.map((f) => this.vectors.get(this.key(embedder, f))!);
  }

  private key(embedder: Embedder, f: FactRecord) {
    return `${embedder.id}:${f.id}`;
  }
}

const factEmbeddings = new FactEmbeddingCache(200_000);
const factText = (f: FactRecord) => `${f.subject} ${f.predicateRaw} ${f.object}`;

const factLine = (f: FactRecord) => `- ${f.subject} ${f.predicate.replace(/_/g, ' ')} ${f.object} (since ${f.validFrom.slice(0, 10)})`;
const memoryLine = (content: string) => `- ${content.replace(/\s+/g, ' ').trim()}`;

interface Line {
  id: string;
  text: string;
  score: number;
  /** Position in the block; lines are chosen by score but written in this order. */
  order: string;
}

/**
 * Chooses lines by descending score while the section fits in `maxChars`, then
 * writes them in their `order`. The choice is query-dependent, the layout is not:
 * when every fact fits, the facts block is identical for every query, so its
 * hash works as a prompt-cache key.
 */
function fillSection(heading: string, lines: Line[], maxChars: number, options: { truncate?: boolean } = {}) {
  let length = heading.length;
  const chosen: Line[] = [];
  for (const line of lines) {
    let text = line.text;
    const room = maxChars - length - 1;
    if (text.length > room) {
      // A long memory that does not fit whole still contributes its beginning, when there is room for it.
      if (!options.truncate || room < MIN_EXCERPT_CHARS) continue;
      text = `${text.slice(0, room - 1).trimEnd()}…`;
    }
    length += 1 + text.length;
    chosen.push({ ...line, text });
  }
  if (chosen.length === 0) return { text: '', used: [] as Line[] };
  const ordered = [...chosen].sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : 0));
  return { text: [heading, ...ordered.map((l) => l.text)].join('\n'), used: chosen };
}

const byScore = (a: { score: number; id: string }, b: { score: number; id: string }) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** GET /v1/context: live facts first, then the most relevant memories, within the token budget. */
export async function assembleContext(
  svc: Services,
  principal: Principal,
  q: { query: string; user_id?: string; agent_id?: string; token_budget: number },
) {
  const agentId = readAgent(principal, q.agent_id);
  await checkAgentReadable(svc, principal, agentId);
  await svc.limits.consume('query', principal.workspace.id, principal.workspace.plan);

  const maxChars = q.token_budget * CHARS_PER_TOKEN;
  const vector = await embedQuery(svc, q.query);
  const found = await nearestMemories(svc, vector, vectorFilterOf(principal, { user_id: q.user_id, agent_id: q.agent_id }), MAX_MEMORIES);
  const memoryScore = new Map(found.map(({ hit, memory }) => [memory.id, hit.score]));

  const facts = (
    await svc.store.facts.query({ workspaceId: principal.workspace.id, agentId, userId: q.user_id }, { limit: MAX_FACTS, offset: 0 }, { countTotal: false })
  ).items;
  const factVectors = await factEmbeddings.get(svc.pipeline.embedder, facts);
  // A fact is as relevant as its own words, or as the memory it was said in.
  const rankedFacts = facts
    .map((fact, i) => ({
      fact,
      score: Math.max(cosine(vector, factVectors[i]), ...fact.sourceMemoryIds.map((id) => memoryScore.get(id) ?? -1)),
    }))
    .sort((a, b) => byScore({ score: a.score, id: a.fact.id }, { score: b.score, id: b.fact.id }));
  const factsById = new Map(facts.map((f) => [f.id, f]));

  const stable = fillSection(
    'Known facts:',
    rankedFacts.map(({ fact, score }) => ({
      id: fact.id,
      text: factLine(fact),
      score,
      order: `${PREDICATE_FAMILIES.indexOf(fact.family)}\u0000${fact.subjectKey}\u0000${fact.predicate}\u0000${fact.objectKey}\u0000${fact.id}`,
    })),
    maxChars,
  );
  const carried = new Set(stable.used.flatMap((line) => factsById.get(line.id)!.sourceMemoryIds));

  // A short memory whose facts are already in the block adds nothing.
  const memories = found.filter(({ memory }) => !(carried.has(memory.id) && memory.content.length <= 160));
  const remaining = maxChars - (stable.text ? stable.text.length + 2 : 0);
  const volatile = fillSection(
    'Relevant memories:',
    memories.map(({ memory, hit }, rank) => ({ id: memory.id, text: memoryLine(memory.content), score: hit.score, order: String(rank).padStart(4, '0') })),
    remaining,
    { truncate: true },
  );

  const context = stable.text && volatile.text ? `${stable.text}\n\n${volatile.text}` : stable.text || volatile.text;
  return {
    context,
    tokens: estimateTokens(context),
    // Most relevant first, facts and memories together.
    sources: [...stable.used, ...volatile.used].sort(byScore).map((line) => line.id),
    stable: stable.text,
    volatile: volatile.text,
    stable_hash: createHash('sha256').update(stable.text).digest('hex'),
  };
}
