import { isJobPhrase } from './lexicon.js';
import { readVerb } from './inflection.js';
import type { SubjectRef } from './subjects.js';

/**
 * Clauses that leave their subject out: chat ("moved to Leeds in May, live in Headingley now"),
 * agent notes ("Lives in Omaha now.", "User born in Lagos, raised in Houston") and profile lists
 * ("41, software architect at Intuit, married to Grace"). The subject is the previous clause's
 * subject in the same sentence, else the user. The caller gets the clause rewritten so that the
 * ordinary verb-phrase reading applies ("raised in Houston" -> "am raised in Houston").
 */

/** Participles and adjectives that stand for "be <word>" in a verbless fragment. */
export const BE_WORDS = new Set([
  'born', 'raised', 'based', 'married', 'engaged', 'divorced', 'separated', 'diagnosed', 'allergic', 'employed', 'enrolled',
  'retired', 'fluent', 'subscribed', 'single', 'widowed', 'vegan', 'vegetarian', 'pescatarian', 'located', 'self-employed',
]);

/** Present-tense verbs whose base form after a comma still reads as a dropped "I" ("..., live in Leeds now"). */
const BASE_STATE_LEMMAS = new Set(['live', 'work', 'reside', 'study', 'speak', 'own', 'drive', 'love', 'like', 'hate', 'enjoy', 'prefer', 'eat', 'drink', 'smoke', 'vape', 'play', 'support', 'bank']);

const LEADING_ADVERBS = /^(?:(?:now|just|recently|finally|also|actually|currently|still|originally|previously|formerly|then|later|eventually|officially|newly)\s+)+/i;

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
  /** True when a taxonomy surface starts with these words (lemmatised by the caller). */
  startsSurface: (text: string) => boolean;
}

const USER_IMPLICIT: SubjectRef = { subject: 'user', subjectType: 'user', confidence: 0.9 };

export function implicitSubject(body: string, ctx: ImplicitSubjectContext): ImplicitSubject | undefined {
  const text = body.trim();
  const stripped = text.replace(LEADING_ADVERBS, '');
  const first = /^([A-Za-z][a-z'-]*)\b/.exec(stripped)?.[1];
  if (!first) return undefined;
  const lower = first.toLowerCase();
  const subjects = ctx.previous && ctx.previous.length > 0 ? ctx.previous : [USER_IMPLICIT];

  if (BE_WORDS.has(lower)) {
    const be = lower === 'born' ? 'was' : 'am';
    return { subjects, rest: `${be} ${text}` };
  }
  const readings = readVerb(lower);
  // "Lives in Omaha", "moved to Leeds": third-person and past forms cannot be imperatives.
  if (readings.some((r) => r.form === 'third' || r.form === 'past') && ctx.startsSurface(stripped)) return { subjects, rest: text };
  if (!ctx.sentenceInitial && readings.some((r) => r.form === 'base' && BASE_STATE_LEMMAS.has(r.lemma)) && ctx.startsSurface(stripped)) return { subjects, rest: text };
  // "software architect at Intuit", "retired nurse": a job title fragment in a profile list.
  const job = /^(?:an?\s+)?([a-z][a-z -]*?)(?=\s+(?:at|for|with|in)\s|$)/i.exec(stripped);
  if (!ctx.sentenceInitial && job && isJobPhrase(job[1]) && job[1].split(' ').length <= 4) return { subjects, rest: `am a ${stripped.replace(/^an?\s+/i, '')}` };
  return undefined;
}
