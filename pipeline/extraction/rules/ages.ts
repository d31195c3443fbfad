import nlp from 'compromise';
import type { FactDraft } from './draft.js';
import { isPersonName } from './lexicon.js';
import { USER, type SubjectRef } from './subjects.js';

/**
 * Ages as people write them, read from a whole sentence (before agent-note rewriting, which drops
 * parentheses): "I'm 33 and single", "my daughter Freya is 14", "Ella (12), Max (9)", "User (45) is
 * learning", "User (he/him), 41,", "im Jess, 23,", "52yo male", "my son Leo turns 6 on the 30th"
 * (5 until then), "turning 50 next month" (49), "Gran turned 90 yesterday" (90).
 * The age is the current one: a birthday ahead means one less.
 */

const USER_WORDS = /^(?:I|user|the user|client|patient|pt|customer|member)$/i;
const NUMBER = String.raw`(\d{1,3})`;
/** What may follow a stated age: anything else ("33 minutes", "5k", "9am", "1.85 m") is not one. */
const AGE_END = String.raw`(?:\s*(?:years?|yrs?)(?:\s+old)?|\s*(?:yo|y\/o|y\.o\.))?(?=\s*(?:$|[.,](?!\d)|[;:!)]|-|and\b|but\b|so\b|lol\b|haha\b|now\b|this\b|today\b|in\b|with\b|who\b|which\b|yet\b|already\b|btw\b))`;
const NAME = String.raw`(I|[Uu]ser|[A-Z][\p{L}'’-]+)`;

const STATED = new RegExp(String.raw`(?:^|[\s,;(])${NAME}\s+(?:am|is)\s+(?:now\s+|only\s+|just\s+)?${NUMBER}${AGE_END}`, 'gu');
const PARENTHESISED = new RegExp(String.raw`(?:^|[\s,;:(])${NAME}\s*\((?:age\s+|aged\s+)?${NUMBER}\)`, 'gu');
/** "User (he/him), 41, architect", "im Jess, 23, and", "Tunde here, 27, tester": the writer's age (and name). */
const USER_APPOSITION = /^(?:(?:user|client|patient|customer)\s*(?:\([^)]*\))?\s*|(?:I am|its|it is)\s+([A-Z][\p{L}'’-]+)|([A-Z][\p{L}'’-]+)\s+here)\s*,\s*(\d{1,3})\s*,/iu;
const NOTE_AGE = /(?:^|[\s:,])(\d{1,3})\s*(?:yo|y\/o|y\.o\.|-year-old|year old)\s+(?:male|female|man|woman|m|f|nonbinary)\b/i;
const TURNS = new RegExp(String.raw`(?:^|[\s,;])(?:${NAME}\s+)?(turns|turning|turnin'?|will turn|will be|is turning|am turning|is going to be|am going to be|turned|just turned)\s+${NUMBER}\b(.*)$`, 'u');
const AHEAD = /\b(?:on the|on|next|in|this|tomorrow|soon|later|at the end of|by)\b/i;

/** Capitalised words that are not names, even right before an age cue. */
const NOT_NAMES = /^(?:The|A|An|My|Our|His|Her|Their|This|That|It|He|She|We|They|You|There|Here|What|Which|Who|Today|Tomorrow|Yesterday|Now|Mum|Mom|Dad|Gran|Grandma|Grandad|Grandpa|Nan|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter|Age|Aged)$/;

/** The age cue ("is 14", "(12)", "turns 6") is strong, so any capitalised word that is not a known non-name counts. */
function subjectFor(name: string | undefined): SubjectRef | undefined {
  if (name === undefined || USER_WORDS.test(name)) return USER;
  if (!/^[A-Z][\p{Ll}'’-]+$/u.test(name) || NOT_NAMES.test(name) || nlp(name).has('(#Place|#Organization)')) return undefined;
  return { subject: name, subjectType: 'person', confidence: 1 };
}

/** "before I'm 40", "since I turned 40": an age in a subordinate clause is not the current one. */
const SUBORDINATE = /\b(?:before|until|till|when|since|by the time|after|if|once|unless)\s*$/i;
/** "the Land Rover is 22": a name preceded by another capitalised word is a product or place name. */
const INSIDE_NAME = /[A-Z][\p{L}'’-]*\s*$/u;

function plausible(n: number): boolean {
  return n > 0 && n < 120;
}

function draft(subject: SubjectRef, age: number, raw: string): FactDraft {
  return { subject, predicate: 'age', predicateRaw: raw, object: String(age), negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.9 };
}

/** The writer's name when the sentence introduces them with their age ("im Jess, 23, ..."). */
export function introducedName(sentence: string): string | undefined {
  const m = USER_APPOSITION.exec(sentence);
  const name = m?.[1] ?? m?.[2];
  return name && isPersonName(name) ? name : undefined;
}

/** Age facts in a sentence, at most one per subject. */
export function ageFacts(sentence: string): FactDraft[] {
  const found = new Map<string, FactDraft>();
  const add = (subject: SubjectRef | undefined, age: number, raw: string) => {
    if (!subject || !plausible(age) || found.has(subject.subject)) return;
    found.set(subject.subject, draft(subject, age, raw));
  };
  const turns = TURNS.exec(sentence);
  if (turns) {
    const [, name, verb, number, rest] = turns;
    const age = Number(number);
    const done = /turned/i.test(verb);
    // Dropped subject only at the start: "turning 50 next month".
    const subject = name ? subjectFor(name) : turns.index === 0 ? USER : undefined;
    const background = SUBORDINATE.test(sentence.slice(0, turns.index + (turns[0].length - turns[0].trimStart().length)));
    if (!background && done) add(subject, age, verb);
    else if (!background && AHEAD.test(rest)) add(subject, age - 1, verb);
  }
  for (const m of sentence.matchAll(STATED)) {
    // "I am not 25, I am 52": only affirmative statements count (the regex requires the number right after the verb).
    const before = sentence.slice(0, m.index + m[0].indexOf(m[1]));
    if (SUBORDINATE.test(before) || (m[1] !== 'I' && INSIDE_NAME.test(before))) continue;
    add(subjectFor(m[1]), Number(m[2]), 'is');
  }
  for (const m of sentence.matchAll(PARENTHESISED)) add(subjectFor(m[1]), Number(m[2]), '(age)');
  const apposition = USER_APPOSITION.exec(sentence);
  if (apposition) add(USER, Number(apposition[3]), ', age,');
  const note = NOTE_AGE.exec(sentence);
  if (note) add(USER, Number(note[1]), 'yo');
  return [...found.values()];
}
