import type OpenAI from 'openai';
import { z } from 'zod';
import type { CandidateFact, ContradictionDecision, ContradictionJudge, IncomingFact } from '../types.js';
import { LlmOutputError, completeJson } from '../extraction/openai-client.js';
import { completes, endsAlong, isSingleValued, oppositeOf } from '../extraction/taxonomy.js';

/**
 * Stage 2 through an OpenAI-compatible chat model. Cases with nothing to judge
 * (no candidates) are decided locally without a request. The reply is validated:
 * unknown fact ids, a confirm without factId or an insert_closed without a valid
 * closedAt throw LlmOutputError.
 */

const replySchema = z.object({
  decision: z.enum(['confirm', 'insert', 'insert_closed', 'retract', 'reschedule']),
  factId: z.string().nullable(),
  invalidate: z.array(z.string()),
  closedAt: z.string().nullable(),
  reason: z.string(),
});

export function judgeJsonSchema(): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['decision', 'factId', 'invalidate', 'closedAt', 'reason'],
    properties: {
      decision: { type: 'string', enum: ['confirm', 'insert', 'insert_closed', 'retract', 'reschedule'] },
      factId: { type: ['string', 'null'], description: 'for confirm: the id of the live fact that the new fact restates' },
      invalidate: { type: 'array', items: { type: 'string' }, description: 'ids of live facts the new fact ends (insert, retract), or plans it cancels (reschedule)' },
      closedAt: { type: ['string', 'null'], description: 'for insert_closed: ISO time at which the new, older fact stopped being true; for insert: optional end where a later live fact (a plan) starts' },
      reason: { type: 'string' },
    },
  };
}

export const JUDGE_SYSTEM_PROMPT = [
  'You maintain a store of facts about a user that change over time. Decide what to do with a new fact given the live facts with the same subject and the same or opposite predicate. Reply with JSON only.',
  '- confirm (factId): the new fact restates a live fact (same predicate, same object up to case, articles and spelling).',
  '- insert (invalidate): store the new fact; list live facts it contradicts. Single-valued predicates (e.g. lives_in, works_at) allow one value: a different object contradicts. Multi-valued predicates (likes, owns) are contradicted only by the opposite predicate with the same object.',
  '- insert_closed (closedAt): the new fact contradicts a live fact whose validFrom is later, so it is already history; closedAt = that later validFrom.',
  '- retract (invalidate): the new fact is a denial (negated=true); list the live facts it denies; nothing new is stored. Object "*" denies every value of the predicate that has started, but no plan that has not (validFrom after referenceTime). A live object may carry a name in parentheses ("beagle (Biscuit)"); a denial by that name ("Biscuit") denies it.',
  '- A past-tense fact never invalidates a different live value; store it closed (insert_closed at its validTo or validFrom) or, if it ends a live copy of the same value, retract that copy.',
  '- Timeline: a fact is valid from validFrom until invalidAt. validFromStated=false means validFrom is only when the fact was recorded, so a later statement (referenceTime after it) about the present outranks it. A live fact that starts later than the new one (a plan) is not invalidated: insert with closedAt = its validFrom instead.',
  '- Fulfilment and things that end together: a fact whose predicate is listed in `completes` ends live facts of those predicates with the same object (visited X ends trip_to X and wants_to_visit X); a denial ends live facts of the predicates in `endsAlong` with the same object (not owning a car ends driving it).',
  '- reschedule (invalidate = plan ids): the new fact restates a plan that has not started (validFrom after the new referenceTime) with another date, or says it is happening now; those plans are cancelled and the fact is judged again.',
].join('\n');

export interface LlmContradictionJudgeOptions {
  client: OpenAI;
  model: string;
}

export class LlmContradictionJudge implements ContradictionJudge {
  constructor(private readonly options: LlmContradictionJudgeOptions) {}

  async decide(incoming: IncomingFact, candidates: CandidateFact[]): Promise<ContradictionDecision> {
    if (candidates.length === 0) {
      if (incoming.negated) return { kind: 'retract', invalidate: [] };
      if (incoming.tense === 'past') return { kind: 'insert_closed', closedAt: incoming.validTo ?? incoming.validFrom };
      return { kind: 'insert', invalidate: [] };
    }
    const payload = {
      incoming: { ...incoming, validFrom: incoming.validFrom.toISOString(), validTo: incoming.validTo?.toISOString() ?? null, referenceTime: incoming.referenceTime?.toISOString() ?? null, singleValued: isSingleValued(incoming.predicate), opposite: oppositeOf(incoming.predicate) ?? null, completes: completes(incoming.predicate), endsAlong: endsAlong(incoming.predicate) },
      live: candidates.map((c) => ({ ...c, validFrom: c.validFrom.toISOString(), invalidAt: c.invalidAt?.toISOString() ?? null })),
    };
    const reply = await completeJson(this.options.client, {
      model: this.options.model,
      system: JUDGE_SYSTEM_PROMPT,
      user: JSON.stringify(payload),
      schemaName: 'contradiction_decision',
      schema: judgeJsonSchema(),
    });
    return toDecision(reply, candidates);
  }
}

/** Validates a model reply against the candidates (exported for tests). */
export function toDecision(reply: unknown, candidates: CandidateFact[]): ContradictionDecision {
  const parsed = replySchema.safeParse(reply);
  if (!parsed.success) throw new LlmOutputError(`model output does not match the decision schema: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const d = parsed.data;
  const known = new Set(candidates.map((c) => c.id));
  const unknown = [...d.invalidate, ...(d.decision === 'confirm' && d.factId ? [d.factId] : [])].filter((id) => !known.has(id));
  if (unknown.length > 0) throw new LlmOutputError(`model referenced unknown fact ids: ${unknown.join(', ')}`);
  switch (d.decision) {
    case 'confirm':
      if (!d.factId) throw new LlmOutputError('confirm without factId');
      return { kind: 'confirm', factId: d.factId };
    case 'insert': {
      const closedAt = d.closedAt ? new Date(d.closedAt) : null;
      return closedAt && !Number.isNaN(closedAt.getTime()) ? { kind: 'insert', invalidate: d.invalidate, closedAt } : { kind: 'insert', invalidate: d.invalidate };
    }
    case 'reschedule':
      return { kind: 'reschedule', cancel: d.invalidate };
    case 'retract':
      return { kind: 'retract', invalidate: d.invalidate };
    case 'insert_closed': {
      const closedAt = d.closedAt ? new Date(d.closedAt) : null;
      if (!closedAt || Number.isNaN(closedAt.getTime())) throw new LlmOutputError(`insert_closed without a valid closedAt: ${d.closedAt}`);
      return { kind: 'insert_closed', closedAt };
    }
  }
}
