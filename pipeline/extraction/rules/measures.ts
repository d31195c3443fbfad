import type { FactDraft } from './draft.js';
import { USER } from './subjects.js';

/**
 * Body measures stated about the user without a taxonomy verb: "weighed in at 92 kg this morning",
 * "down to 85kg!!", "I'm 14 stone", "I'm 5'10\" btw", "I'm actually 5'9\", not 5'10\"". A weight needs
 * its unit and a first-person or weigh-in frame; a height is feet and inches (or "tall").
 */

const WEIGHT_UNIT = String.raw`\d{2,3}(?:[.,]\d)?\s*(?:kg|kgs|kilos?|kilograms?|lbs?|pounds|stone|st)\b(?:\s*\d{1,2}\s*(?:lbs?|pounds)\b)?`;
const WEIGHT = new RegExp(String.raw`^(?:(?:I|i)\s+(?:am|was)\s+(?:now\s+|currently\s+|only\s+|about\s+|around\s+)?|(?:I\s+)?weigh(?:ed|s)?(?:\s+in)?(?:\s+at)?\s+(?:about\s+|around\s+)?|(?:I\s+am\s+|I\s+have\s+got\s+|got\s+|finally\s+|now\s+)?(?:down|up)\s+to\s+)(${WEIGHT_UNIT})`, 'u');
const HEIGHT = /^(?:I|i)\s+am\s+(?:actually\s+|only\s+|just\s+|about\s+|around\s+)?(\d\s*(?:'|’|ft|foot|feet)\s*\d{1,2}\s*(?:"|”|''|in(?:ches)?)?|\d\s*(?:'|’|ft|foot|feet)(?=\s|,|$)|1\.\d{1,2}\s*m\b|1\d{2}\s*cm\b)/u;

export function measureFacts(text: string): FactDraft[] | undefined {
  const t = text.trim();
  const draft = (predicate: string, object: string): FactDraft => ({ subject: USER, predicate, predicateRaw: predicate === 'weight' ? 'weigh' : 'be tall', object, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.85 });
  const weight = WEIGHT.exec(t);
  if (weight) return [draft('weight', weight[1].trim())];
  const height = HEIGHT.exec(t);
  if (height) return [draft('height', height[1].replace(/\s+/g, ' ').trim())];
  return undefined;
}
