import type { SubjectType } from '../../types.js';

/**
 * A subject span as the model tagged it ("my mum", "User's sister", "Anna", "Anna's") to the subject the
 * corpus and the store use: the user, `user's <relation>` (relation words canonical), or a name as written.
 */
const RELATION_WORDS: Record<string, string> = {
  mom: 'mother', mum: 'mother', mommy: 'mother', mummy: 'mother', mama: 'mother', ma: 'mother',
  dad: 'father', daddy: 'father', papa: 'father', pa: 'father',
  grandma: 'grandmother', granny: 'grandmother', gran: 'grandmother', nana: 'grandmother', nan: 'grandmother',
  grandpa: 'grandfather', grandad: 'grandfather', granddad: 'grandfather', gramps: 'grandfather',
  hubby: 'husband', bf: 'boyfriend', gf: 'girlfriend', bro: 'brother', sis: 'sister', boss: 'manager',
  stepmom: 'stepmother', stepmum: 'stepmother', stepdad: 'stepfather', kid: 'child',
};
const OWNER = /^(?:my|our|user['’]s|the user['’]s|client['’]s|the client['’]s|patient['’]s|his|her|their)\s+(.+)$/i;
const THE_USER = /^(?:i|me|we|us|the user|user|the client|client|the patient|patient|pt|applicant|the applicant)$/i;

export function subjectFromSpan(text: string): { subject: string; subjectType: SubjectType } | undefined {
  const span = text.trim().replace(/['’]s$/i, '').replace(/[,.:;!?]+$/, '');
  if (!span) return undefined;
  if (THE_USER.test(span)) return { subject: 'user', subjectType: 'user' };
  const owned = OWNER.exec(span);
  if (owned) {
    const words = owned[1].toLowerCase().replace(/['’]s$/, '');
    const relation = words
      .split(/\s+/)
      .map((w) => RELATION_WORDS[w] ?? w)
      .join(' ');
    return { subject: `user's ${relation}`, subjectType: 'person' };
  }
  if (!/^\p{Lu}/u.test(span) || span.split(/\s+/).length > 3) return undefined;
  return { subject: span, subjectType: 'person' };
}
