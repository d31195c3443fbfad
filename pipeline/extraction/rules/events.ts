import type { FactDraft } from './draft.js';
import { findDates, removeMentions } from './dates.js';
import { cleanEventObject } from './event-objects.js';
import { APPOINTMENT_HEADS, EVENT_HEADS } from './lexicon.js';
import { USER } from './subjects.js';

/**
 * Events talked about as things rather than through a verb of the user's: "my cousin's wedding is on
 * 3 August", "the interview got moved to Thursday", "the Rome trip's off", "we cancelled the Cancun
 * trip", "can't go to Priya's wedding any more". The event noun decides the predicate (appointments,
 * trips, other events); a stated date makes it planned from that date, so a moved event supersedes its
 * earlier date in the contradiction stage, and a cancelled one is a denial.
 */

const HEADS = [...APPOINTMENT_HEADS, ...EVENT_HEADS, 'trip', 'holiday', 'vacation', 'getaway', 'weekend away', 'city break', 'appt', 'physio', 'check-up']
  .sort((a, b) => b.length - a.length)
  .map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
/** The patterns are case-insensitive, so a place's second word must not be the verb that follows ("trip to Rome is off"). */
const NOT_A_VERB = String.raw`(?!(?:is|are|was|were|has|have|got|been|off|now|just|will|moved|cancelled|canceled)\b)`;
const NP = String.raw`(?:(?:my|our|the|a|an|this|that)\s+)?((?:[\p{L}\d'’&.-]+\s+){0,4}?(?:${HEADS.join('|')})(?:\s+(?:to|in|at|with)\s+[A-Z][\p{L}'’-]+(?:\s+${NOT_A_VERB}[A-Z][\p{L}'’-]+)?)?)`;

const MOVED = new RegExp(String.raw`^${NP}(?:'s|’s)?(?:\s+(?:is|are|was|has|have))?(?:\s+(?:now|just|been|got|gotten|officially|also))*\s+(?:moved|pushed(?:\s+back)?|postponed|rescheduled|brought\s+forward|changed|delayed|bumped(?:\s+up)?|shifted)(?:\s+from\s+.+?)?\s+(?:back\s+)?(?:to|until|till|til)\s+(.+)$`, 'iu');
const DATED = new RegExp(String.raw`^${NP}(?:\s+(?:is|are|will\s+be)|'s|’s)\s+(?:now\s+)?(.+)$`, 'iu');
const CANCELLED = new RegExp(String.raw`^${NP}(?:'s|’s)?(?:\s+(?:is|are|was|has|have|got|been|just|now|officially))*\s+(?:cancelled|canceled|off|called\s+off|scrapped)\b`, 'iu');
const USER_CANCELS = new RegExp(String.raw`^(?:I|we)\s+(?:(?:had|have)\s+to\s+|just\s+|also\s+)*(?:cancel(?:led)?|canceled|call(?:ed)?\s+off|scrapped|skip(?:ped)?|can\s+not\s+(?:go\s+to|make(?:\s+it\s+to)?|attend)|am\s+not\s+(?:going\s+to|attending)|are\s+not\s+(?:going\s+to|attending)|will\s+not\s+(?:be\s+)?(?:going\s+to|attending|make\s+it\s+to))\s+${NP}`, 'iu');

const TRIP_HEADS = /\b(?:trip|holiday|vacation|getaway|weekend away|city break)$/i;

function factFor(np: string): { predicate: string; object: string } | undefined {
  const phrase = np.replace(/^(?:my|our|the|a|an|this|that)\s+/i, '').trim();
  const trip = /^(?:(.+?)\s+)?(?:trip|holiday|vacation|getaway|weekend away|city break)(?:\s+(?:to|in)\s+(.+))?$/i.exec(phrase);
  if (trip && TRIP_HEADS.test(phrase.replace(/\s+(?:to|in)\s+.+$/i, ''))) {
    const place = trip[2] ?? trip[1];
    if (!place || !/^[A-Z]/.test(place)) return undefined;
    return { predicate: 'trip_to', object: cleanEventObject(place.replace(/'s$/, '')) };
  }
  const head = phrase.toLowerCase().split(/\s+/).slice(-2);
  const appointment = APPOINTMENT_HEADS.has(head[head.length - 1]) || APPOINTMENT_HEADS.has(head.join(' ')) || /^(?:appt|physio|check-up)$/.test(head[head.length - 1]);
  return { predicate: appointment ? 'has_appointment' : 'attending', object: cleanEventObject(phrase) };
}

/** Event facts for a clause, or undefined when the clause is not about an event. */
export function eventFacts(text: string, referenceTime: Date): FactDraft[] | undefined {
  const t = text.trim().replace(/[.!]+$/, '');
  const base = (np: string, negated: boolean, validFrom: Date | null): FactDraft[] => {
    const f = factFor(np);
    if (!f) return [];
    return [{ subject: USER, predicate: f.predicate, predicateRaw: negated ? 'cancelled' : 'is on', object: f.object, negated, tense: negated ? 'current' : 'planned', validFrom, validTo: null, confidence: negated ? 0.85 : 0.8 }];
  };
  const cancelled = CANCELLED.exec(t) ?? USER_CANCELS.exec(t);
  if (cancelled) return base(cancelled[1], true, null);
  const moved = MOVED.exec(t);
  if (moved) {
    const date = findDates(moved[2], referenceTime, true)[0];
    return date ? base(moved[1], false, date.date) : undefined;
  }
  const dated = DATED.exec(t);
  if (dated) {
    const mentions = findDates(dated[2], referenceTime, true);
    // "X is on 3 August (in Galway)": the complement is essentially a date.
    if (mentions.length === 0 || mentions[0].date.getTime() < referenceTime.getTime() - 86_400_000) return undefined;
    const rest = removeMentions(dated[2], mentions).replace(/^(?:on|at|in)\b/i, '').trim();
    if (rest.split(/\s+/).filter(Boolean).length > 6) return undefined;
    return base(dated[1], false, mentions[0].date);
  }
  return undefined;
}
