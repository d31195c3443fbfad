import { isJobPhrase, isPersonName } from './lexicon.js';
import { readVerb } from './inflection.js';
import { USER, type SubjectRef } from './subjects.js';
import { tokenize } from './verb-phrase.js';

/**
 * Clauses that leave their subject out: chat ("moved to Leeds in May, live in Headingley now",
 * "going to Marrakech in October", "not a fan of sushi"), agent notes ("Lives in Omaha now.", "User
 * born in Lagos, raised in Houston") and profile lists ("41, software architect at Intuit, married
 * to Grace"). The subject is the previous clause's subject in the same sentence, else the user. The
 * caller gets the clause rewritten so that the ordinary verb-phrase reading applies ("raised in
 * Houston" -> "am raised in Houston"). Whether the words that follow are a taxonomy surface is the
 * caller's `isSurfaceStart` to say, so the taxonomy decides, not a phrase list.
 */

/** Participles and adjectives that stand for "be <word>" in a verbless fragment. */
export const BE_WORDS = new Set([
  'born', 'raised', 'based', 'married', 'engaged', 'divorced', 'separated', 'diagnosed', 'allergic', 'employed', 'enrolled',
  'retired', 'fluent', 'subscribed', 'single', 'widowed', 'vegan', 'vegetarian', 'pescatarian', 'located',
]);

/** Present-tense verbs whose base form after a comma still reads as a dropped "I" ("..., live in Leeds now"). */
const BASE_STATE_LEMMAS = new Set(['live', 'work', 'reside', 'study', 'speak', 'own', 'drive', 'love', 'like', 'hate', 'enjoy', 'prefer', 'eat', 'drink', 'smoke', 'vape', 'play', 'support', 'bank']);

const LEADING_ADVERBS = /^(?:(?:now|just|recently|finally|also|actually|currently|still|originally|previously|formerly|then|later|eventually|officially|newly)\s+)+/i;

/** "married to Grace", "born in Lagos", "vegan": the word is an adjective or passive, not "married Grace" (active). */
export function standsForBe(text: string): boolean {
  const [word, next] = text.trim().toLowerCase().split(/\s+/);
  if (!BE_WORDS.has(word)) return false;
  if (/^(?:married|divorced|separated|engaged|employed|raised|diagnosed|based|born|enrolled|subscribed|located)$/.test(word)) return next === undefined || /^(?:to|in|at|with|by|from|on|for|since|and|,)$/.test(next.replace(/,$/, ''));
  return true;
}

/** The fragment with the "be" it leaves out: "born in Lagos" -> "was born in Lagos". */
export function withBe(text: string): string {
  return `${/^\s*born\b/i.test(text) ? 'was' : 'am'} ${text.trim()}`;
}

export interface ImplicitSubject {
  subjects: SubjectRef[];
  /** The clause to read after the subject. */
  rest: string;
}

export interface ImplicitSubjectContext {
  /** Subjects of the previous clause of the same sentence, if it had any. */
  previous?: SubjectRef[];
  /** True for the first clause of a sentence. */
  sentenceInitial: boolean;
  /** True when a taxonomy surface starts with these words (any verb form). */
  isSurfaceStart: (words: string[]) => boolean;
}

/** True when `text` starts with the words of a taxonomy surface ("lives in", "moved to"). */
function startsWithSurface(text: string, isSurfaceStart: (words: string[]) => boolean): boolean {
  const words = tokenize(text.slice(0, 60)).map((t) => t.lower);
  for (let n = Math.min(4, words.length); n >= 1; n--) if (isSurfaceStart(words.slice(0, n))) return true;
  return false;
}

/** A left-out subject continues the user, a relative, or a person named by a known first name; not "Portuguese is my first language". */
export function carriesOver(subject: SubjectRef): boolean {
  return subject.subjectType === 'user' || /^user's\s/.test(subject.subject) || (subject.subjectType === 'person' && isPersonName(subject.subject.split(' ')[0]));
}

const USER_IMPLICIT: SubjectRef = { subject: 'user', subjectType: 'user', confidence: 0.9 };

export function implicitSubject(body: string, ctx: ImplicitSubjectContext): ImplicitSubject | undefined {
  const text = body.trim();
  const stripped = text.replace(LEADING_ADVERBS, '');
  const subjects = ctx.previous && ctx.previous.length > 0 && ctx.previous.every(carriesOver) ? ctx.previous : [USER_IMPLICIT];
  // "grew up in Vancouver, now in Toronto", "Now in Boulder.": where the subject lives after a history.
  if (/^now\s+(?:in|based in)\s+\S/i.test(text)) return { subjects, rest: text.replace(/^now\s+(?:based\s+)?in\s+/i, 'live in ') };
  // "originally from Cork but ...": where the subject comes from.
  if (/^originally\s+from\s+\S/i.test(text)) return { subjects, rest: `am ${text}` };
  // "Tunde here, 27, software tester": a bare age in a profile list.
  if (!ctx.sentenceInitial && AGE_FRAGMENT.test(stripped)) return { subjects, rest: `am ${stripped.replace(/\s*(?:yo|y\/o|y\.o\.|years old)$/i, '')}` };
  const first = /^([A-Za-z][a-z'-]*)\b/.exec(stripped)?.[1];
  if (!first) return undefined;
  const lower = first.toLowerCase();

  // "been diagnosed with coeliac", "been in Dublin 3 years": a perfect without its "I have".
  if (lower === 'been' && stripped.split(/\s+/).length > 2) return { subjects, rest: `have ${text}` };
  // "on lamotrigine", "on keto for the last few months": "be on" with its object deciding the predicate.
  if (lower === 'on' && /^on\s+(?!the\b|my\b|a\b|an\b|monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekends?|top|it|that|this|time)/i.test(stripped)) return { subjects, rest: `am ${stripped}` };
  if (BE_WORDS.has(lower) && standsForBe(stripped)) return { subjects, rest: withBe(text) };
  const readings = readVerb(lower);
  // "Lives in Omaha", "moved to Leeds": third-person and past forms cannot be imperatives.
  if (readings.some((r) => r.form === 'third' || r.form === 'past') && startsWithSurface(stripped, ctx.isSurfaceStart)) return { subjects, rest: text };
  if (!ctx.sentenceInitial && readings.some((r) => r.form === 'base' && BASE_STATE_LEMMAS.has(r.lemma)) && startsWithSurface(stripped, ctx.isSurfaceStart)) return { subjects, rest: text };
  if (ctx.sentenceInitial) {
    const rest = droppedWriterClause(text, ctx.isSurfaceStart);
    return rest === undefined ? undefined : { subjects: [USER], rest };
  }
  // "software architect at Intuit", "retired nurse": a job title fragment in a profile list.
  if (startsWithJobTitle(stripped)) return { subjects, rest: `am a ${stripped.replace(/^an?\s+/i, '')}` };
  return undefined;
}

const NEGATION = /^(?:not|never)\s+(?:(?:really|exactly|much|actually|that|too|a\s+huge|a\s+big)\s+)*/i;
const CHAT_ADVERBS = /^(?:(?:still|really|totally|absolutely|so|currently|just|properly|kind\s+of|kinda|sort\s+of|lowkey|low-key|genuinely|also|officially|finally)\s+)+/i;

/**
 * A sentence that opens without "I" and its auxiliary, as chat does: "going to Marrakech in October",
 * "been to Japan twice", "obsessed with Taskmaster", "not a fan of sushi". Returns the clause with
 * the auxiliary restored ("am not a fan of sushi") when a taxonomy surface follows.
 */
function droppedWriterClause(text: string, isSurfaceStart: (words: string[]) => boolean): string | undefined {
  const t = text.trim().replace(CHAT_ADVERBS, '');
  const negation = NEGATION.exec(t)?.[0] ?? '';
  const rest = t.slice(negation.length).replace(CHAT_ADVERBS, '');
  const words = rest.toLowerCase().split(/\s+/).filter(Boolean).map((w) => w.replace(/[^a-z'-]/g, ''));
  if (words.length < 2) return undefined;
  const not = negation ? 'not ' : '';
  // "been to Japan twice", "been getting into birdwatching"
  if (words[0] === 'been') return `have ${not}${rest}`;
  // "going to Marrakech", "flying to Lisbon on Friday", "loving the new job"
  if (readVerb(words[0]).some((r) => r.form === 'gerund') && isSurfaceStart([words[0], words[1]])) return `am ${not}${rest}`;
  // "obsessed with Taskmaster", "a huge fan of MCR", "into running", "allergic to cats"
  for (const n of [3, 2, 1]) {
    if (n === 1 && /^(?:a|an|the|my|our|some)$/.test(words[0])) continue;
    if (words.length > n && isSurfaceStart(['be', ...words.slice(0, n)])) return `am ${not}${rest}`;
  }
  return undefined;
}

const AGE_FRAGMENT = /^(?:1[3-9]|[2-9]\d)\s*(?:yo|y\/o|y\.o\.|years old)?$/i;

function startsWithJobTitle(text: string): boolean {
  // Lower case ("..., Dev, is great" names a person) and no verb or article inside ("being a junior dev").
  const job = /^(?:an?\s+)?([a-z][a-z -]*?)(?=\s+(?:at|for|with|in)\s|$)/.exec(text);
  if (!job || job[1].split(' ').length > 4 || /\b(?:a|an|the|my|being|is|was)\b/.test(job[1])) return false;
  return isJobPhrase(job[1]);
}

/**
 * True when a comma is followed by a verbless fragment about the same subject ("..., 41, software
 * architect at Intuit, married to Grace", "..., on lamotrigine"): the comma starts a new clause.
 */
export function startsFragment(text: string, isMedicationOrDiet: (phrase: string) => boolean): boolean {
  const t = text.trim();
  if (/^now\s+(?:based\s+)?in\s+[A-Z]/.test(t)) return true;
  const first = /^([a-z-]+)/i.exec(t)?.[1]?.toLowerCase();
  if (first && BE_WORDS.has(first) && standsForBe(t) && t.split(/\s+/).length > 1) return true;
  if (first === 'on') return isMedicationOrDiet(t.replace(/^on\s+/i, '').split(/[,;]|\s+(?:for|and|since|now|which|when|but)\b/i)[0].trim());
  const piece = t.split(/\s*[,;]\s*/)[0];
  return AGE_FRAGMENT.test(piece) || startsWithJobTitle(piece);
}
