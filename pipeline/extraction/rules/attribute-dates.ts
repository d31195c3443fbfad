import type { FactDraft } from './draft.js';
import { findDates } from './dates.js';

const DAY_MS = 86_400_000;
const PAST_VERB = /\b(?:went|was|were|rose|jumped|dropped|fell|increased|decreased|changed|got|has|have|had|gone)\b/i;

/**
 * Dates stated with an attribute change: "from January my salary goes up to 70k" is a plan that starts
 * in January (the current salary stays valid until then); "rent went up to $2,150 in May" holds from May.
 * Denials of the old value ("from 41k to 47k") keep their timing: they end the old value now.
 */
export function datedAttributes(text: string, drafts: FactDraft[] | undefined, referenceTime: Date): FactDraft[] | undefined {
  if (!drafts || drafts.length === 0) return drafts;
  // "went up in May" names the last May; "goes up in May" the next one.
  const forward = !PAST_VERB.test(text);
  const mention = findDates(text, referenceTime, forward).find((m) => m.role === 'start' || m.role === 'point');
  if (!mention) return drafts;
  const at = mention.date.getTime();
  const future = at > referenceTime.getTime() + DAY_MS;
  return drafts.map((d) => {
    if (d.negated || d.validFrom || d.tense === 'past') return d;
    if (future) return { ...d, tense: 'planned', validFrom: mention.date };
    if (d.tense === 'current' && at <= referenceTime.getTime()) return { ...d, validFrom: mention.date };
    return d;
  });
}
