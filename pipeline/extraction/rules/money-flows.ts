import { findAmount } from '../amount.js';
import type { FactDraft } from './draft.js';
import { extractObjects } from './objects.js';
import { USER } from './subjects.js';

/**
 * Money put towards something or owed on something, whatever the verb: "putting away £300 a month
 * for a deposit on a house", "got about 8 grand saved for the wedding" (saving_for), "~$22k remaining
 * on student loans", "the last £800 on my overdraft" (has_loan). The amount is the cue; the noun after
 * "for" is the goal, a loan noun after "on" is the debt.
 */

const SAVING = /\b(?:sav(?:e|es|ed|ing)|put(?:ting)?\s+(?:away|aside|by)|set(?:ting)?\s+aside|stash(?:ed|ing)?)\b(?:\s+\S+){0,6}?\s+(?:for|towards?)\s+(.+)$/i;
const SAVED_AMOUNT_FOR = /\bsaved\s+(?:up\s+)?(?:for|towards?)\s+(.+)$/i;
const ON_LOAN = /\s(?:on|against)\s+((?:my|our|the|his|her)\s+)?([\p{L} -]*?\b(?:mortgage|overdraft|loans?|student loans?|credit cards?|car finance|car payment|debt))\b/iu;

function draft(predicate: string, object: string, raw: string): FactDraft {
  return { subject: USER, predicate, predicateRaw: raw, object, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.8 };
}

/** Drafts for a clause about saving towards something or owing on a loan, or undefined. */
export function moneyFlowFacts(text: string): FactDraft[] | undefined {
  if (!/\d|\bsav(?:e|es|ed|ing)\b|\bput(?:ting)?\s+(?:away|aside|by)\b/i.test(text)) return undefined;
  if (/^(?:(?:my|our|his|her|their)\s+\w+|[A-Z][a-z]+)\s+(?:is|are|was|has|have)\b/.test(text)) return undefined;
  if (/\b(?:not|never|no longer|paid off|cleared)\b/i.test(text)) return undefined;
  const saving = SAVING.exec(text) ?? (findAmount(text, true) ? SAVED_AMOUNT_FOR.exec(text) : null);
  if (saving) {
    const goal = extractObjects(saving[1], { objectClass: 'any', predicate: 'saving_for', multi: false }).filter((g) => !/^(?:it|that|this|now|years|months|ages)\b/i.test(g));
    return goal.length > 0 ? goal.map((g) => draft('saving_for', g, 'save for')) : undefined;
  }
  if (!findAmount(text, true)) return undefined;
  const loan = ON_LOAN.exec(text);
  if (loan) return [draft('has_loan', loan[2].trim().replace(/^(?:the|a|an)\s+/i, ''), 'owe on')];
  return undefined;
}
