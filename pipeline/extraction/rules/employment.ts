import type { FactDraft } from './draft.js';
import { findDates, removeMentions } from './dates.js';
import { isJobPhrase } from './lexicon.js';
import { extractObjects } from './objects.js';
import { USER } from './subjects.js';

/**
 * Employment named by a noun rather than "work at": "I got the job at the library", "accepted a
 * marketing coordinator role at Starbucks", "a job offer from Pfizer", "landed an internship at
 * JPMorgan", "I've been at Kakao for four years". The employer follows the employment noun; a job title
 * before "role", "position" or "job" is the title. Leaving or losing the job ends it; starting it on a
 * coming date plans it from then. Jobs of other people ("my sister got the job at Allegro") are theirs,
 * not the user's, and are left to the clause parser.
 */

const EMPLOYMENT = String.raw`(?:job|role|position|post|offer|job\s+offer|internship|placement|contract|apprenticeship|traineeship|fellowship|postdoc)`;
const NOUN_THEN_EMPLOYER = new RegExp(String.raw`\b((?:[\p{L}-]+\s+){0,3}?)${EMPLOYMENT}\s+(?:at|with|from)\s+((?:the\s+)?\p{L}(?:[^,.;!?()]|\.(?=\S))*)`, 'giu');
/** Where the employer's name ends: the clause goes on with a verb or a new phrase ("the contract at Ericsson ended on Friday"). */
const EMPLOYER_END = /\s+(?:is|was|were|has|had|will|would|starts?|started|starting|ends?|ended|finish\w*|got|went|in|on|for|from|as|and|but|so|which|who|where|since|until|because)\b.*$/i;
/** "been at Kakao for four years": being at an organisation for a stretch of time is working there. */
const STRETCH_AT = /\b(?:been|spent\s+(?:\w+\s+){0,2}(?:years?|yrs?|months?))\s+at\s+((?:the\s+)?\p{Lu}[^,.;!?()]*?)\s+(?:for\s+)?(?:(?:nearly|almost|about|over)\s+)?(?:\d+|a|two|three|four|five|six|seven|eight|nine|ten|\w+teen|twenty)\s+(?:years?|yrs?|months?)\b/iu;
const ENDED = /\b(?:left|leaving|lost|losing|quit|quitting|ended|ending|finished|finishing|resign\w*|fired|sacked|laid\s+off|let\s+go|turned\s+down|declined|rejected|didn['’]?t\s+get|did\s+not\s+get)\b/i;
const OTHERS = /\b(?:he|she|they|his|her|their)\b|\b(?:my|our)\s+(?:\w+\s+)?(?:sister|brother|son|daughter|wife|husband|partner|friend|mum|mom|dad|colleague|manager|boss|cousin|girlfriend|boyfriend|roommate|flatmate)\b/iu;
const NAMED_OTHER = /^\s*\p{Lu}\p{Ll}+\s+(?:got|landed|accepted|has|is|was|started)\b/u;
const aboutOthers = (clause: string) => OTHERS.test(clause) || NAMED_OTHER.test(clause);
const UPCOMING = /\b(?:start|starting|starts|will|going\s+to|from)\b/i;
const NOT_TITLE = /^(?:a|an|the|my|our|new|first|dream|full-time|part-time|permanent|temporary|summer|remote|this|that|accepted|got|landed|the\s+new|got\s+the|accepted\s+the|accepted\s+a|got\s+a|landed\s+a)$/i;

function titleBefore(words: string): string | undefined {
  const title = words
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .filter((w, i, all) => !(NOT_TITLE.test(w) && all.slice(0, i).every((x) => NOT_TITLE.test(x))))
    .join(' ');
  return title && isJobPhrase(title) ? title : undefined;
}

const MENTIONS_EMPLOYMENT = new RegExp(String.raw`\b(?:${EMPLOYMENT}|been|spent)\b`, 'i');

export function employmentFacts(sentence: string, referenceTime: Date): FactDraft[] {
  if (!MENTIONS_EMPLOYMENT.test(sentence)) return [];
  const drafts: FactDraft[] = [];
  const draft = (predicate: string, object: string, negated: boolean, validFrom: Date | null): FactDraft => ({
    subject: USER, predicate, predicateRaw: 'job at', object, negated, tense: validFrom ? 'planned' : 'current', validFrom, validTo: null, confidence: 0.7,
  });
  for (const m of sentence.matchAll(NOUN_THEN_EMPLOYER)) {
    const before = sentence.slice(0, m.index + m[1].length);
    const clause = before.split(/[,;:.!?]|\b(?:and|but|so|because|while)\b/).pop() ?? '';
    if (aboutOthers(clause)) continue;
    const named = m[2].replace(EMPLOYER_END, '');
    const employer = extractObjects(removeMentions(named, findDates(named, referenceTime, false)), { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
    if (!employer || /^same\b/i.test(employer)) continue;
    const negated = ENDED.test(clause) || ENDED.test(m[2]);
    const when = !negated && UPCOMING.test(sentence) ? findDates(sentence, referenceTime, true).find((d) => d.role !== 'duration' && d.date > referenceTime) : undefined;
    drafts.push(draft('works_at', employer, negated, when?.date ?? null));
    const title = negated ? undefined : titleBefore(m[1]);
    if (title) drafts.push(draft('job_title', title, false, when?.date ?? null));
  }
  const stretch = STRETCH_AT.exec(sentence);
  if (stretch && !aboutOthers(sentence.slice(0, stretch.index))) {
    const employer = extractObjects(stretch[1], { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
    if (employer && !/^(?:the\s+)?same\b/i.test(employer)) drafts.push(draft('works_at', employer, ENDED.test(sentence), null));
  }
  return drafts;
}
