import type { UserScope } from '../../storage/types.js';
import type { PipelineDeps } from '../write/stages.js';
import type { FactDraft } from '../write/types.js';
import { neverValid } from './candidates.js';

const OWN_WEDDING = /^(?:(?:the|our|my)\s+)?(?:own\s+)?wedding(?:\s+day)?$/i;

/**
 * "the wedding's now 10 May" names no partner: when exactly one marriage of the subject is planned and
 * has not started, the wedding is that marriage, so the statement moves it (the judge then reschedules).
 */
export async function ownWeddingAsMarriage(deps: Pick<PipelineDeps, 'store' | 'rules'>, scope: UserScope, fact: FactDraft): Promise<FactDraft> {
  if (fact.predicate !== 'attending' || fact.negated || fact.tense !== 'planned' || !OWN_WEDDING.test(fact.object.trim())) return fact;
  const now = Date.parse(fact.referenceTime ?? fact.validFrom);
  const marriages = (await deps.store.facts.findLive(scope, deps.rules.subjectKey(fact.subject), ['married_to'], new Date(now).toISOString()))
    .filter((f) => !neverValid(f) && Date.parse(f.validFrom) > now);
  const objects = new Set(marriages.map((f) => deps.rules.normalizeObject(f.object)));
  if (objects.size !== 1) return fact;
  const m = marriages[0];
  return { ...fact, predicate: 'married_to', predicateRaw: 'getting married', family: m.family, object: m.object, objectIsLiteral: m.objectIsLiteral };
}
