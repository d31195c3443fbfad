import type { SubjectType } from '../../types.js';
import { ACQUAINTANCES, EX_RELATIONS, GROUP_RELATIONS, PETS, RELATIONS, petKind } from './lexicon.js';
import { isVerbForm, readVerb } from './inflection.js';

/** "Left Guy's in March", "Quit Deloitte", "Moved to Leeds": a past or third-person verb, not a first name. */
function isFiniteVerbNotName(word: string): boolean {
  const lower = word.toLowerCase();
  return /(?:ed|t)$|^(?:quit|sold|bought|got|went|took|began|became|joined|left|lost|met|made|found)$/.test(lower) && readVerb(lower).some((r) => r.form === 'past');
}

/**
 * Who a clause is about. First person becomes "user"; "my sister Anna" becomes
 * "Anna" plus a people fact (user has_sister Anna); an unnamed relative becomes
 * "user's sister"; he/she resolve to the last person mentioned in the same content.
 */

export interface SubjectRef {
  subject: string;
  subjectType: SubjectType;
  /** Multiplier on fact confidence: 1 for explicit subjects, lower for "we" or a resolved pronoun. */
  confidence: number;
}

/** A people fact implied by a possessive: "my sister Anna" -> user has_sister Anna. */
export interface ImpliedRelation {
  predicate: string;
  object: string;
  negated: boolean;
  /** The words as written, e.g. "my sister". */
  surface: string;
  /** Relation word used as an entity alias, e.g. "sister". */
  relation: string;
  /** Pet kind when the possessive names an animal ("my dog Rex"). */
  petKind?: string;
}

export interface SubjectParse {
  subjects: SubjectRef[];
  /** Text after the subject phrase. */
  rest: string;
  relations: ImpliedRelation[];
}

export const USER: SubjectRef = { subject: 'user', subjectType: 'user', confidence: 1 };

/** Capitalised words that start sentences without being names. */
const NOT_NAMES = new Set(
  ('the this that these those it its there here my our your his her their we you they he she a an yes no ok okay so and but also well just today yesterday tomorrow now then last next every some all most many each any ' +
    'maybe actually honestly please thanks thank hi hello hey good great nice cool what where when why how who which if because since although after before during until while ' +
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july august september october november december i me mine ' +
    'one two three four five six seven eight nine ten lol haha oh ah um uh hmm btw fyi note update remember sure right wow oops sorry anyway besides plus however therefore ' +
    'currently recently lately finally basically apparently probably perhaps definitely always never sometimes usually often both either neither none nobody everyone everybody someone somebody people').split(' '),
);

const RELATION_KEYS = [...new Set([...Object.keys(RELATIONS), ...Object.keys(EX_RELATIONS), ...GROUP_RELATIONS, ...ACQUAINTANCES, ...PETS])].sort((a, b) => b.length - a.length);

function matchRelationWord(text: string): { key: string; rest: string } | undefined {
  const lower = text.toLowerCase();
  for (const key of RELATION_KEYS) {
    if (lower.startsWith(key) && (lower.length === key.length || /[\s,'’]/.test(lower[key.length]))) {
      return { key, rest: text.slice(key.length) };
    }
  }
  // Plural pets: "my cats" -> cat.
  const word = /^([a-z-]+)/.exec(lower)?.[1];
  if (word && word.endsWith('s') && petKind(word)) return { key: word, rest: text.slice(word.length) };
  return undefined;
}

const CAPITALISED_NAME = /^((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+){0,2})/u;

/** A proper name at the start of `text` that is followed by a verb, or undefined. */
export function leadingName(text: string, startsWithVerbPhrase: (rest: string) => boolean): { name: string; rest: string } | undefined {
  const match = CAPITALISED_NAME.exec(text);
  if (!match) return undefined;
  let words = match[1].split(/\s+/);
  if (NOT_NAMES.has(words[0].toLowerCase()) || words[0] === 'I') return undefined;
  if (isFiniteVerbNotName(words[0])) return undefined;
  // Trim trailing capitalised words that are really the verb ("Anna Lives in ...") or not names.
  while (words.length > 0) {
    const name = words.join(' ');
    const rest = text.slice(name.length).replace(/^\s+/, '');
    if (startsWithVerbPhrase(rest) && !isVerbForm(words[words.length - 1].toLowerCase())) return { name, rest };
    words = words.slice(0, -1);
  }
  return undefined;
}

function relationFor(key: string, surface: string): Omit<ImpliedRelation, 'object'> | undefined {
  const ex = EX_RELATIONS[key];
  if (ex) return { predicate: ex.predicate, negated: ex.negated, surface, relation: key };
  const rel = RELATIONS[key];
  if (rel) return { predicate: rel.predicate, negated: false, surface, relation: rel.relation };
  return undefined;
}

/**
 * Reads the name that may follow a relation word: "my sister Anna", "my sister, Anna,",
 * "my dog named Rex", and in lower-case chat "my sister anna lives ...".
 */
function nameAfterRelation(rest: string, startsWithVerbPhrase: (rest: string) => boolean): { name?: string; rest: string } {
  const appositive = /^\s*,\s*((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+)?)\s*,\s*/u.exec(rest);
  if (appositive) return { name: appositive[1], rest: rest.slice(appositive[0].length) };
  const named = /^\s+(?:named|called)\s+([A-Z]?[\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)?)\s*,?\s*/u.exec(rest);
  if (named) return { name: named[1], rest: rest.slice(named[0].length) };
  const capital = /^\s+((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+)?)(?=\s|,|$)\s*,?\s*/u.exec(rest);
  if (capital && !NOT_NAMES.has(capital[1].split(' ')[0].toLowerCase()) && capital[1] !== 'I') {
    // "my sister Anna lives" but not "my sister Lives"
    const words = capital[1].split(' ');
    const name = isVerbForm(words[words.length - 1].toLowerCase()) && words.length > 1 ? words.slice(0, -1).join(' ') : capital[1];
    if (!isVerbForm(words[0].toLowerCase())) return { name, rest: rest.replace(/^\s+/, '').slice(name.length).replace(/^\s*,?\s*/, '') };
  }
  const lower = /^\s+([a-z][a-z'-]+)\s+(.*)$/.exec(rest);
  if (lower && !isVerbForm(lower[1]) && !NOT_NAMES.has(lower[1]) && startsWithVerbPhrase(lower[2])) {
    return { name: lower[1], rest: lower[2] };
  }
  return { rest: rest.replace(/^\s*,?\s*/, '') };
}

export interface SubjectContext {
  lastPerson?: SubjectRef;
  startsWithVerbPhrase: (rest: string) => boolean;
  /** Entity type of a capitalised name, by compromise. */
  typeOfName: (name: string, clause: string) => SubjectType;
}

/** "Me and my husband Paul live ...", "Anna and I moved ...": the user plus one other subject. */
function compoundSubject(text: string, ctx: SubjectContext): SubjectParse | undefined {
  const userFirst = /^(?:me|I)\s+and\s+/i.exec(text);
  const words = (userFirst ? text.slice(userFirst[0].length) : text).split(/\s+/);
  for (let n = 1; n <= Math.min(5, words.length - 1); n++) {
    let otherText: string;
    let rest: string;
    if (userFirst) {
      otherText = words.slice(0, n).join(' ');
      rest = words.slice(n).join(' ');
    } else {
      if (!/^and$/i.test(words[n] ?? '') || !/^(?:I|me)$/i.test(words[n + 1] ?? '')) continue;
      otherText = words.slice(0, n).join(' ');
      rest = words.slice(n + 2).join(' ');
    }
    if (!rest || !ctx.startsWithVerbPhrase(rest)) continue;
    const other = parseSubject(`${otherText} is`, { ...ctx, startsWithVerbPhrase: () => true });
    const others = other?.subjects.filter((s) => s.subject !== 'user') ?? [];
    if (others.length === 0 && !/^(?:my|our)\s/i.test(otherText)) continue;
    return { subjects: [USER, ...others], rest, relations: other?.relations ?? [] };
  }
  return undefined;
}

/** Parses the subject at the start of a clause, or undefined when it is not one we track. */
export function parseSubject(clause: string, ctx: SubjectContext): SubjectParse | undefined {
  const text = clause.trim();

  const pair = compoundSubject(text, ctx);
  if (pair) return pair;

  const first = /^(I|we)\b\s*/i.exec(text);
  if (first) {
    const isWe = first[1].toLowerCase() === 'we';
    return { subjects: [{ ...USER, confidence: isWe ? 0.95 : 1 }], rest: text.slice(first[0].length), relations: [] };
  }

  const possessive = /^(?:my|our)\s+/i.exec(text);
  if (possessive) {
    const afterMy = text.slice(possessive[0].length);
    const relation = matchRelationWord(afterMy);
    if (!relation) return undefined;
    const surface = `${possessive[0]}${afterMy.slice(0, relation.key.length)}`.trim();
    const named = nameAfterRelation(relation.rest, ctx.startsWithVerbPhrase);
    const pet = petKind(relation.key);
    if (pet && !RELATIONS[relation.key]) {
      const subject: SubjectRef = named.name ? { subject: named.name, subjectType: 'thing', confidence: 1 } : { subject: `user's ${pet}`, subjectType: 'thing', confidence: 1 };
      return { subjects: [subject], rest: named.rest, relations: [{ predicate: 'has_pet', object: pet, negated: false, surface, relation: pet, petKind: pet }] };
    }
    if (GROUP_RELATIONS.has(relation.key)) {
      return { subjects: [{ subject: `user's ${relation.key}`, subjectType: 'person', confidence: 1 }], rest: named.rest, relations: [] };
    }
    const implied = relationFor(relation.key, surface);
    if (!implied) {
      if (!ACQUAINTANCES.has(relation.key)) return undefined;
      const subject: SubjectRef = named.name ? { subject: named.name, subjectType: 'person', confidence: 1 } : { subject: `user's ${relation.key}`, subjectType: 'person', confidence: 1 };
      return { subjects: [subject], rest: named.rest, relations: [] };
    }
    if (named.name) {
      return {
        subjects: [{ subject: named.name, subjectType: 'person', confidence: 1 }],
        rest: named.rest,
        relations: [{ ...implied, object: named.name }],
      };
    }
    const canonical = RELATIONS[relation.key]?.relation ?? relation.key;
    return { subjects: [{ subject: `user's ${canonical}`, subjectType: 'person', confidence: 1 }], rest: named.rest, relations: [] };
  }

  const pronoun = /^(he|she)\b\s*/i.exec(text);
  if (pronoun) {
    if (!ctx.lastPerson) return undefined;
    return { subjects: [{ ...ctx.lastPerson, confidence: 0.85 }], rest: text.slice(pronoun[0].length), relations: [] };
  }

  const appositive = /^((?:[A-Z][\p{L}'’-]+)(?:\s+[A-Z][\p{L}'’-]+)?),\s*(?:my|our)\s+([^,]+?),\s*(.+)$/u.exec(text);
  if (appositive && !NOT_NAMES.has(appositive[1].split(' ')[0].toLowerCase()) && ctx.startsWithVerbPhrase(appositive[3])) {
    const rel = matchRelationWord(appositive[2]);
    const implied = rel && rel.rest.trim() === '' ? relationFor(rel.key, `my ${rel.key}`) : undefined;
    return {
      subjects: [{ subject: appositive[1], subjectType: 'person', confidence: 1 }],
      rest: appositive[3],
      relations: implied ? [{ ...implied, object: appositive[1] }] : [],
    };
  }

  const name = leadingName(text, ctx.startsWithVerbPhrase);
  if (name) {
    const appositive = /^,?\s*(?:my|our)\s+(.+?),\s*/i.exec(name.rest);
    const relations: ImpliedRelation[] = [];
    let rest = name.rest;
    if (appositive) {
      const rel = matchRelationWord(appositive[1]);
      const implied = rel && rel.rest.trim() === '' ? relationFor(rel.key, `my ${rel.key}`) : undefined;
      if (implied) relations.push({ ...implied, object: name.name });
      rest = name.rest.slice(appositive[0].length);
    }
    return { subjects: [{ subject: name.name, subjectType: ctx.typeOfName(name.name, text), confidence: 1 }], rest, relations };
  }
  return undefined;
}
