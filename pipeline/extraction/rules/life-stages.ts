/**
 * A period of the user's life that dates what follows: "When I was a kid I had a hamster", "Growing
 * up, we had two cats", "As a teenager I played rugby". The clause after it states a past fact; the
 * lead-in states nothing and, left in place, hides the fact from the clause parser.
 */

const STAGE = String.raw`(?:a\s+)?(?:kid|child|little|young|younger|small|teenager|teen|boy|girl|baby|student|at\s+school|at\s+uni|at\s+university|in\s+school|in\s+college|growing\s+up)`;
const WHEN_I_WAS = new RegExp(String.raw`^(?:back\s+)?(?:when|while)\s+(?:I|we)\s+(?:was|were)\s+${STAGE}\b\s*,?\s+(?=\S)`, 'i');
const AS_A = /^(?:as\s+(?:a\s+)?(?:kid|child|kids|children|teenager|teen|teens|boy|girl|student)|growing\s+up|in\s+my\s+(?:childhood|teens|youth|student\s+days)|back\s+in\s+(?:school|uni|college))\b\s*,?\s+(?=(?:I|we)\b)/i;

/** The sentence without a leading life-stage phrase (unchanged when there is none). */
export function withoutLifeStage(sentence: string): string {
  return sentence.replace(WHEN_I_WAS, '').replace(AS_A, '');
}
