/**
 * Changes reported as someone else's action, rewritten into the first person the clause parser reads:
 *  - a clinician changes the user's medication: "doctor added atorvastatin" -> "I take atorvastatin",
 *    "doc's taken me off citalopram" -> "I came off citalopram", "they upped my metformin to 1000mg" -> "I take metformin";
 *  - an employer withdraws an offer: "Revolut rescinded the offer" -> "I am not joining Revolut".
 */

const CLINICIAN = String.raw`(?:(?:the|my)\s+)?(?:doctor|doc|gp|consultant|psychiatrist|specialist|nurse|endo|endocrinologist|cardiologist|neurologist|dermatologist|rheumatologist|they|she|he|dr\.?\s+[A-Z][a-z]+)(?:'s|\s+has|\s+have)?`;
const ADDED = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+|also\s+)?(?:added|prescribed(?:\s+me)?|started\s+me\s+on|put\s+me\s+on|given\s+me|gave\s+me)\s+(?=\S)`, 'i');
const TAKEN_OFF = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+)?(?:taken|took)\s+me\s+off\s+`, 'i');
const RAISED = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+)?(?:upped|increased|raised|doubled|lowered|reduced|halved|changed)\s+(?:my|the)\s+(\S+(?:\s+\S+)?)\s+(?:dose\s+)?(?:to|from)\b.*$`, 'i');
const OFFER_WITHDRAWN = /^([A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*)\s+(?:has\s+|have\s+)?(?:rescinded|withdrew|withdrawn|pulled|retracted|cancelled|canceled|revoked)\s+(?:the|my|their|its)\s+(?:job\s+)?offer\b.*$/u;

export function rewriteReportedChange(sentence: string): string {
  const raised = RAISED.exec(sentence);
  if (raised) return `I take ${raised[1]}`;
  const offer = OFFER_WITHDRAWN.exec(sentence);
  if (offer) return `I am not joining ${offer[1]}`;
  return sentence.replace(ADDED, 'I take ').replace(TAKEN_OFF, 'I came off ');
}
