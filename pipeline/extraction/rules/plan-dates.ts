import type { ExtractedFact } from '../../types.js';
import { findDates } from './dates.js';

/**
 * A plan often gets its date in another clause or sentence of the same message:
 * "we're getting a puppy!! picking her up on august 10th", "the reunion was brought forward to
 * 3 August; the user is still going to Edinburgh". A planned fact stated without a date takes the
 * message's future date when the message names exactly one, counting the dates of sentences whose facts
 * used none and the dates of the other plans (plans told together share them), never a date another kind
 * of fact used ("my birthday is on 3 June"). With none or several it stays undated (recorded at the
 * message time, as before).
 */
export function datePlansFromMessage(facts: ExtractedFact[], sentencesWithFreeDates: string[], referenceTime: Date): void {
  const undated = facts.filter((f) => f.tense === 'planned' && f.validFrom === null && !f.negated);
  if (undated.length === 0) return;
  const days = new Map<string, Date>();
  const note = (date: Date) => {
    if (date.getTime() > referenceTime.getTime()) days.set(date.toISOString().slice(0, 10), date);
  };
  for (const sentence of sentencesWithFreeDates) {
    for (const mention of findDates(sentence, referenceTime, true)) if (mention.role !== 'duration') note(mention.date);
  }
  for (const plan of facts) if (plan.tense === 'planned' && plan.validFrom) note(plan.validFrom);
  if (days.size !== 1) return;
  const [date] = days.values();
  for (const fact of undated) fact.validFrom = date;
}

/** Facts whose value is a date: the sentence's date is theirs. */
const DATE_VALUED = new Set(['birthday', 'anniversary', 'birth_year', 'age']);

/** True when none of a sentence's facts took its date (a stated start or end, or a date as the value). */
export function leavesDatesFree(sentenceFacts: ExtractedFact[]): boolean {
  return sentenceFacts.every((f) => !f.validFrom && !f.validTo && !DATE_VALUED.has(f.predicate));
}
