import nlp from 'compromise';
import type { FactDraft } from './draft.js';
import { findDates, removeMentions } from './dates.js';
import { cleanEventObject } from './event-objects.js';
import { readVerb } from './inflection.js';
import { APPOINTMENT_HEADS, EVENT_HEADS, isAppointmentPhrase, isEventPhrase } from './lexicon.js';
import { USER } from './subjects.js';

/**
 * Events named with a date and no verb, as chat and diaries write them: "smear test tues, parents
 * evening weds", "MRI on my knee tomorrow at 9:15", "hospital appointment at the Royal Vic on 8th of
 * July", "first date Thursday". The event noun decides the predicate (lexicon heads); the date, which
 * must not be past, makes it planned from then.
 */

const DETERMINER = /^(?:(?:my|our|the|a|an|this|that)\s+)+/i;
const DANGLING = /\s+(?:on|at|in|from|for|by|until|is|are|'s)$/i;

function hasVerb(phrase: string): boolean {
  const words = phrase.split(' ');
  if (readVerb(words[0].toLowerCase()).some((r) => r.form === 'gerund')) return true;
  if (words.some((w) => /^(?:is|are|was|were|am|have|has|had|will|got|get)$/i.test(w) || readVerb(w.toLowerCase()).some((r) => r.form === 'past' || r.form === 'third'))) return true;
  return nlp(phrase).has('(#PastTense|#PresentTense|#Modal)');
}

/** Chat abbreviations chrono does not read: "tues", "weds", "thurs". */
const DAY_ABBREVIATIONS: [RegExp, string][] = [[/tues/gi, 'tuesday'], [/weds/gi, 'wednesday'], [/thurs?/gi, 'thursday'], [/tmrw|tmr/gi, 'tomorrow']];
const EVENT_WORD = new RegExp(String.raw`\b(?:${[...APPOINTMENT_HEADS, ...EVENT_HEADS].map((h) => h.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})s?\b`, 'i');
/** "wedding date" is the wedding. */
const DATE_OF_EVENT = /\s+(?:date|day)$/i;

/** Drafts for a verbless dated event list, or undefined when the clause is not one. */
export function nominalEventFacts(text: string, referenceTime: Date): FactDraft[] | undefined {
  // Date parsing is the costly part: only clauses that name an event or appointment get it.
  if (!EVENT_WORD.test(text)) return undefined;
  const drafts: FactDraft[] = [];
  for (const written of text.split(/\s*[,;]\s*(?:and\s+)?(?:then\s+)?|\s+and\s+(?:then\s+)?/i)) {
    const part = DAY_ABBREVIATIONS.reduce((s, [pattern, day]) => s.replace(pattern, day), written);
    const mentions = findDates(part, referenceTime, true).filter((m) => m.role !== 'duration');
    const when = mentions[0];
    if (!when || when.date.getTime() < referenceTime.getTime() - 86_400_000) continue;
    const rest = removeMentions(part, mentions).replace(/\s+/g, ' ').trim().replace(DANGLING, '').replace(/^[^\p{L}]+|[^\p{L}\d)]+$/gu, '');
    // "MRI on my knee in the Mater": the event head comes first, what follows it describes it.
    if (hasVerb(rest.replace(DETERMINER, '') || '-')) continue;
    const phrase = cleanEventObject(rest.replace(DETERMINER, '').replace(/\s+(?:on|for|with|about|of|at|in)\s+(?:my|our|the|a)\s+.*$/i, ''));
    const words = phrase.split(' ').filter(Boolean);
    if (words.length === 0 || words.length > 4 || /^(?:I|we|you|he|she|they|it)$/i.test(words[0]) || hasVerb(phrase)) continue;
    const headed = phrase.replace(DATE_OF_EVENT, '');
    const event = headed !== phrase && (isEventPhrase(headed) || isAppointmentPhrase(headed)) ? headed : phrase;
    const predicate = isAppointmentPhrase(event) ? 'has_appointment' : isEventPhrase(event) ? 'attending' : undefined;
    if (!predicate) continue;
    drafts.push({
      subject: USER, predicate, predicateRaw: 'is on', object: event, negated: false, tense: 'planned',
      validFrom: when.date, validTo: null, confidence: 0.75,
    });
  }
  return drafts.length > 0 ? drafts : undefined;
}
