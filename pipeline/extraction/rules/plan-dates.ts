import type { ExtractedFact } from '../../types.js';
import { findDates } from './dates.js';

/**
 * A plan often gets its date in another clause or sentence of the same message:
 * "we're getting a puppy!! picking her up on august 10th", "the reunion was brought forward to
 * 3 August; the user is still going to Edinburgh". A planned fact stated without a date takes the
 * message's future date when the message names exactly one; with none or several it stays undated
 * (then it is recorded at the message time, as before).
 */
export function datePlansFromMessage(facts: ExtractedFact[], sentences: string[], referenceTime: Date): void {
  const undated = facts.filter((f) => f.tense === 'planned' && f.validFrom === null && !f.negated);
  if (undated.length === 0) return;
  const date = onlyFutureDate(sentences, referenceTime);
  if (!date) return;
  for (const fact of undated) fact.validFrom = date;
}

function onlyFutureDate(sentences: string[], referenceTime: Date): Date | undefined {
  const days = new Map<string, Date>();
  for (const sentence of sentences) {
    for (const mention of findDates(sentence, referenceTime, true)) {
      if (mention.role === 'duration' || mention.date.getTime() <= referenceTime.getTime()) continue;
      days.set(mention.date.toISOString().slice(0, 10), mention.date);
    }
  }
  return days.size === 1 ? [...days.values()][0] : undefined;
}
