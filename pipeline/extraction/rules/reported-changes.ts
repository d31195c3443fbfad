/**
 * Changes reported as someone else's action, rewritten into the first person the clause parser reads:
 *  - a clinician changes the user's medication: "doctor added atorvastatin" -> "I take atorvastatin",
 *    "doc's taken me off citalopram" -> "I came off citalopram", "they upped my metformin to 1000mg" -> "I take metformin",
 *    "the GP switched me from A to B" -> "I switched from A to B", "my GP put me on X" -> "I started on X";
 *  - an employer withdraws an offer: "Revolut rescinded the offer" -> "I am not joining Revolut".
 */

const CLINICIAN = String.raw`(?:(?:the|my)\s+)?(?:doctor|doc|gp|consultant|psychiatrist|specialist|nurse|dentist|endo|endocrinologist|cardiologist|neurologist|dermatologist|rheumatologist|they|she|he|dr\.?\s+[A-Z][a-z]+)(?:'s|\s+has|\s+have)?`;
const ADDED = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+|also\s+)?(?:added|prescribed(?:\s+me)?|started\s+me\s+on|put\s+me\s+on|given\s+me|gave\s+me)\s+(?=\S)`, 'i');
const TAKEN_OFF = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+)?(?:taken|took)\s+me\s+off\s+`, 'i');
const RAISED = new RegExp(String.raw`^${CLINICIAN}\s+(?:just\s+)?(?:upped|increased|raised|doubled|lowered|reduced|halved|changed)\s+(?:my|the)\s+(\S+(?:\s+\S+)?)\s+(?:dose\s+)?(?:to|from)\b.*$`, 'i');
const MOVED_ME = new RegExp(String.raw`^${CLINICIAN}\s+(switched|moved|changed|put|started|upped|increased|reduced|lowered|took)\s+me\s+(?=from|to|on|off)`, 'i');
const OFFER_WITHDRAWN = /^([A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*)\s+(?:has\s+|have\s+)?(?:rescinded|withdrew|withdrawn|pulled|retracted|cancelled|canceled|revoked)\s+(?:the|my|their|its)\s+(?:job\s+)?offer\b.*$/u;

/** "back from Iceland", "just got back from a week in Lisbon": a trip that is over is a visit. */
const BACK_FROM = /^(?:(?:I|we)\s+(?:am|are)\s+|(?:I|we)\s+(?:just\s+)?got\s+|just\s+got\s+|got\s+|just\s+|finally\s+)?back\s+from\s+(?:(?:a|our|my|the)\s+(?:\w+\s+)?(?:trip|week|weekend|fortnight|holiday|vacation|days?|break)\s+(?:to|in)\s+)?([A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)*)/u;

/** "I'm off the sertraline now": the user came off a medication (the surface's class keeps "off work" out). */
const OFF_IT = /^(?:I\s+am|I['’]m)\s+(?:now\s+|finally\s+|completely\s+)?off\s+(?!to\b)(?:the\s+|my\s+)?(.+?)(?:\s+(?:now|completely|altogether))?$/i;

export function rewriteReportedChange(sentence: string): string {
  const trimmed = sentence.trim();
  const off = OFF_IT.exec(trimmed.replace(/[.!]+$/, ''));
  if (off) return `I came off ${off[1]}`;
  const back = BACK_FROM.exec(/^I\b/.test(trimmed) ? trimmed : trimmed.charAt(0).toLowerCase() + trimmed.slice(1));
  if (back) return `I visited ${back[1]}`;
  const raised = RAISED.exec(sentence);
  if (raised) return `I take ${raised[1]}`;
  const offer = OFFER_WITHDRAWN.exec(sentence);
  if (offer) return `I am not joining ${offer[1]}`;
  return sentence
    .replace(ADDED, 'I take ')
    .replace(TAKEN_OFF, 'I came off ')
    .replace(MOVED_ME, (_m, verb: string) => (/^(?:put|started)$/i.test(verb) ? 'I started ' : /^took$/i.test(verb) ? 'I came ' : `I ${verb} `));
}
