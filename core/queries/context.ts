import { createHash } from 'node:crypto';
import { checkAgentReadable } from '../commands/agents.js';
import { readAgent, type Principal } from '../principal.js';
import type { Services } from '../services.js';
import type { FactRecord } from '../../storage/types.js';
import { embedQuery, nearestMemories, vectorFilterOf } from './search.js';

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_TOKEN_BUDGET = 800;
/** Live facts considered per request; the newest first when a scope has more. */
const MAX_FACTS = 500;
const MAX_MEMORIES = 30;

export const estimateTokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};

const factLine = (f: FactRecord) => `- ${f.subject} ${f.predicate.replace(/_/g, ' ')} ${f.object} (since ${f.validFrom.slice(0, 10)})`;
const memoryLine = (content: string) => `- ${content.replace(/\s+/g, ' ').trim()}`;

/** Adds lines under a heading while the whole block stays within `maxChars`. */
function fillSection(heading: string, lines: { id: string; text: string }[], maxChars: number) {
  let text = '';
  const used: string[] = [];
  for (const line of lines) {
    const next = text ? `${text}\n${line.text}` : `${heading}\n${line.text}`;
    if (next.length > maxChars) continue;
    text = next;
    used.push(line.id);
  }
  return { text, used };
}

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
  const facts = (
    await svc.store.facts.query(
      { workspaceId: principal.workspace.id, agentId, userId: q.user_id },
      { limit: MAX_FACTS, offset: 0 },
    )
  ).items;
  const factVectors = facts.length ? await svc.pipeline.embedder.embed(facts.map((f) => `${f.subject} ${f.predicateRaw} ${f.object}`)) : [];
  const rankedFacts = facts
    .map((fact, i) => ({ fact, score: dot(vector, factVectors[i]) }))
    .sort((a, b) => b.score - a.score || (a.fact.id < b.fact.id ? -1 : 1));

  const stable = fillSection('Known facts:', rankedFacts.map(({ fact }) => ({ id: fact.id, text: factLine(fact) })), maxChars);
  const carried = new Set(rankedFacts.filter(({ fact }) => stable.used.includes(fact.id)).flatMap(({ fact }) => fact.sourceMemoryIds));

  const found = await nearestMemories(svc, vector, vectorFilterOf(principal, { user_id: q.user_id, agent_id: q.agent_id }), MAX_MEMORIES);
  // A short memory whose facts are already in the block adds nothing.
  const memories = found.filter(({ memory }) => !(carried.has(memory.id) && memory.content.length <= 160));
  const remaining = maxChars - (stable.text ? stable.text.length + 2 : 0);
  const volatile = fillSection('Relevant memories:', memories.map(({ memory }) => ({ id: memory.id, text: memoryLine(memory.content) })), remaining);

  const context = stable.text && volatile.text ? `${stable.text}\n\n${volatile.text}` : stable.text || volatile.text;
  return {
    context,
    tokens: estimateTokens(context),
    sources: [...stable.used, ...volatile.used],
    stable: stable.text,
    volatile: volatile.text,
    stable_hash: createHash('sha256').update(stable.text).digest('hex'),
  };
}
