import type { FactDraft } from './draft.js';
import { findDates } from './dates.js';
import { isJobPhrase, isLanguage, isPersonName } from './lexicon.js';
import { extractObjects } from './objects.js';
import { USER } from './subjects.js';

/**
 * Sentences that state the user's work without a verb, as in profiles, forms and terse chat:
 * "Accountant, KPMG, tax team.", "Midwife, Leeds General.", "Job: night porter, Hilton Canary Wharf",
 * "data eng @ Monzo", "HR advisor at the NHS trust", "Skills: SQL, Tableau, some Python.", and the
 * end of a job announced by its last day: "my last day at Zendesk will be June 28th".
 */

const draft = (predicate: string, object: string, extra: Partial<FactDraft> = {}): FactDraft => ({
  subject: USER, predicate, predicateRaw: predicate, object, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.8, ...extra,
});

const JOB_LABEL = /^(?:job|occupation|role|position|title|work|profession)\s*:\s*/i;
const JOB_LINE = /^(?:an?\s+)?([A-Za-z][A-Za-z&/ -]*?)\s*(?:(?:,|@|\bat\b|\bwith\b|\bfor\b)\s*((?:an?\s+|the\s+)?[A-Z][\p{L}&'’. -]*?|(?:an?|the)\s+[^,.;(]*?\b(?:called|named)\s+[A-Z][\p{L}&'’. -]*?))?\s*(?:[,.;(!]|$)/u;
const SKILLS_LINE = /^(?:skills|tech stack|stack|tools|technologies|programming languages|languages)\s*:\s*(.+)$/i;
const LAST_DAY = /\b(?:my\s+)?last\s+(?:day|shift|week)\s+(?:at|with)\s+([A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*|the\s+[a-z]+)\b/u;

export function profileLineFacts(sentence: string, referenceTime: Date): FactDraft[] {
  const s = sentence.trim();
  const facts: FactDraft[] = [];

  const skills = SKILLS_LINE.exec(s);
  if (skills) {
    const items = skills[1].split(/\s*(?:[,;.]|\band\b|\bplus\b)\s*/).filter((x) => !/^\s*learning\b/i.test(x)).map((x) => x.replace(/^(?:some|basic|a bit of)\s+/i, '').replace(/[.!]+$/, '').trim()).filter((x) => x && x.split(/\s+/).length <= 3);
    const spoken = /^languages/i.test(skills[0]);
    for (const item of items) facts.push(draft(spoken && isLanguage(item) ? 'speaks' : 'has_skill', item));
    return facts;
  }

  const lastDay = LAST_DAY.exec(s);
  if (lastDay) {
    const employer = extractObjects(lastDay[1], { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
    const when = findDates(s.replace(lastDay[0], ' '), referenceTime, true)[0];
    if (employer) facts.push(draft('works_at', employer, { negated: true, ...(when && when.date > referenceTime ? { tense: 'planned' as const, validFrom: when.date } : {}) }));
    return facts;
  }

  const job = JOB_LINE.exec(s.replace(JOB_LABEL, ''));
  // Not "The physio, Dev", "New nanny, Lupe", "My manager", "I am electrician": a bare title, by itself.
  if (job && !/^(?:the|my|our|his|her|their|new|old|former|i|hi|hey|dear)\b/i.test(job[1]) && !/\b(?:i|am|is|are|was|were|be|been|now|he|she|we|they|it|you)\b/i.test(job[1]) && isJobPhrase(job[1].trim()) && job[1].trim().split(/\s+/).length <= 4) {
    facts.push(draft('job_title', job[1].trim()));
    const employer = job[2] && !isPersonName(job[2].trim()) && extractObjects(job[2], { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
    if (employer) facts.push(draft('works_at', employer));
  }
  return facts;
}
