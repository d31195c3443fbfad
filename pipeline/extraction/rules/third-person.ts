/**
 * Agent notes talk about the user in the third person: "The user works at Stripe", "Client's rent
 * went up", "User mentioned she switched jobs". This rewrites such a sentence into the first person the
 * clause parser reads ("I works at Stripe", "my rent went up", "I switched jobs"); the verb parser
 * accepts third-person verb forms after "I", so agreement does not matter.
 */

const USER_NOUN = String.raw`(?:the\s+)?(?:user|client|customer|patient|caller|member|subscriber)`;
const REPORTING =
  String.raw`(?:mentioned|mentions|said|says|reported|reports|noted|notes|told\s+(?:me|us)|tells\s+(?:me|us)|shared|shares|stated|states|explained|explains|confirmed|confirms|indicated|indicates|added|adds|wrote|writes|let\s+(?:me|us)\s+know|disclosed|discloses|clarified|clarifies|is\s+saying|was\s+saying|updated\s+(?:me|us))`;
const LEADING = new RegExp(String.raw`^(\s*(?:note|update|fyi|context|n\.?b\.?)?\s*[:,-]?\s*)${USER_NOUN}(?:\s*\([^)]*\))?(?:'s|’s)?\b`, 'i');
const REPORTED = new RegExp(String.raw`^I\s+(?:(?:also|just|recently|today|again)\s+)?${REPORTING}(?:\s+that)?[\s,:]+(?:(?:she|he|they)\b\s*)?`, 'i');

/**
 * Forms and case notes name the user by a role, capitalised and without an article, after an optional
 * "Warranty claim:" style label: "Applicant currently resides in Tempe", "Policyholder sold 2009 Honda
 * Civic", "Customer purchased ...". The role counts as the user when a verb or adverb follows.
 */
const ROLE_LEAD = /^(\s*(?:[\p{L}/ -]{0,40}:\s*)?)(?:Applicant|Policyholder|Tenant|Candidate|Borrower|Claimant|Insured|Homeowner|Customer|Client|Patient|Member|Employee|Resident|Account holder)(?=\s+(?:currently|recently|now|still|also|just|has|is|was|had|sold|bought|got|left|took|paid|drove|won|lost|[a-z]+ed|[a-z]+s)\b)/u;

/** The sentence in the first person when it is about "the user"; unchanged otherwise. */
export function toFirstPerson(sentence: string): string {
  const role = ROLE_LEAD.exec(sentence);
  if (role && !LEADING.test(sentence)) sentence = `User${sentence.slice(role[0].length)}`;
  const lead = LEADING.exec(sentence);
  if (!lead) return laterClausesAboutUser(sentence);
  const possessive = /(?:'s|’s)$/.test(lead[0]);
  let rest = sentence.slice(lead[0].length);
  let s = `${lead[1]}${possessive ? 'my' : 'I'}${rest}`.replace(/^\s*(?:note|update|fyi|context|n\.?b\.?)?\s*[:,-]?\s*/i, '');
  const reported = REPORTED.exec(s);
  if (reported) {
    rest = s.slice(reported[0].length);
    // "mentioned her husband is ...", "said she is ...": what follows is about the user.
    s = /^(?:her|his|their)\s/i.test(rest) ? rest.replace(/^(?:her|his|their)\s/i, 'my ') : /^(?:I|my|we|our)\b/i.test(rest) ? rest : `I ${rest}`;
  }
  // Later clauses: "..., and she works at X" / "her husband" refer to the user.
  return s
    .replace(/([,;]\s*(?:and\s+|but\s+|so\s+)?|\s(?:and|but|so|because|since|while)\s+)(?:she|he)\b/gi, '$1I')
    .replace(/\b(?:her|his)\b(?=\s+[a-z])/g, 'my');
}

const LATER_USER = new RegExp(String.raw`([,;]\s*(?:and\s+|but\s+|so\s+)?|\s(?:and|but|so|because|since|while)\s+)${USER_NOUN}(['’]s)?\b`, 'gi');

/** "The reunion was moved to 3 August; the user is still going": a later clause about the user. */
function laterClausesAboutUser(sentence: string): string {
  return sentence.replace(LATER_USER, (_m, joint: string, possessive?: string) => `${joint}${possessive ? 'my' : 'I'}`);
}
