import type { Tense } from '../../types.js';
import { findDates } from './dates.js';
import type { FactDraft } from './draft.js';
import { CONDITION_ADJECTIVES, EX_RELATIONS, GROUP_RELATIONS, LANGUAGES, RELATIONS, petKind } from './lexicon.js';
import { extractObjects, dietOf } from './objects.js';
import { USER, type SubjectRef } from './subjects.js';
import type { ObjectClass } from '../taxonomy.js';

/**
 * Whole-clause patterns that do not follow "subject verb object": possessive
 * attributes ("my favourite colour is green", "my wife's name is Maria",
 * "my birthday is on May 3"), "X is my favourite Y", "Tom is my brother",
 * "call me Alex", pet deaths and allergy nouns.
 * Returns undefined when no pattern applies (the generic path runs instead).
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const NAME = "([A-Z]?[\\p{L}'’-]+(?:\\s+[A-Z][\\p{L}'’-]+){0,2})";
const CAPITALISED_NAME = "([A-Z][\\p{L}'’-]+(?:\\s+[A-Z][\\p{L}'’-]+){0,2})";

const FAVORITE_CATEGORIES: [RegExp, string][] = [
  [/^(?:food|dish|meal|cuisine|snack|dessert|fruit|vegetable|pizza topping|restaurant)s?$/, 'favorite_food'],
  [/^(?:colou?r)s?$/, 'favorite_color'],
  [/^(?:movie|film)s?$/, 'favorite_movie'],
  [/^(?:book|novel|author|writer)s?$/, 'favorite_book'],
  [/^(?:band|artist|singer|song|album|genre|music|musician|group|rapper|composer|kind of music|type of music)s?$/, 'favorite_music'],
  [/^(?:sport)s?$/, 'favorite_sport'],
];

export function favoritePredicate(category: string): string {
  const c = category.toLowerCase().trim();
  for (const [pattern, predicate] of FAVORITE_CATEGORIES) if (pattern.test(c)) return predicate;
  return `favorite_${c.replace(/s$/, '').replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '')}`;
}

/** "May 3rd", "the 14th of July", "on 2 February" -> "May 3". */
function monthDay(text: string, referenceTime: Date): { monthDay: string; year?: number } | undefined {
  const dates = findDates(text, referenceTime, false).filter((d) => d.role !== 'duration');
  const d = dates[0];
  if (!d) return undefined;
  const hasMonth = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b\d{1,2}[./-]\d{1,2}\b/i.test(d.text);
  if (!hasMonth || (!/\d/.test(d.text) && !/\b(?:first|second|third|fourth|fifth|\w+teenth|twentieth|thirtieth)\b/i.test(d.text))) return undefined;
  const yearStated = /\b(?:19|20)\d{2}\b/.test(d.text);
  return { monthDay: `${MONTHS[d.date.getUTCMonth()]} ${d.date.getUTCDate()}`, year: yearStated ? d.date.getUTCFullYear() : undefined };
}

function draft(subject: SubjectRef, predicate: string, object: string, raw: string, tense: Tense = 'current', negated = false): FactDraft {
  return { subject, predicate, predicateRaw: raw, object, negated, tense, validFrom: null, validTo: null, confidence: 0.9 };
}

function objects(value: string, objectClass: ObjectClass, predicate: string, multi: boolean): string[] {
  return extractObjects(value, { objectClass, predicate, multi });
}

interface AttributeRule {
  pattern: RegExp;
  predicate: string;
  objectClass: ObjectClass;
  multi?: boolean;
  /** Transform the value before object extraction. */
  value?: (v: string) => string;
}

const ATTRIBUTES: AttributeRule[] = [
  { pattern: /^(?:first |full |real |given )?name$/, predicate: 'name', objectClass: 'person' },
  { pattern: /^nickname$/, predicate: 'name', objectClass: 'person' },
  { pattern: /^(?:annual |monthly |yearly |current |base |new )?(?:salary|income|pay|wage|take-home pay|take home pay)$/, predicate: 'salary', objectClass: 'money' },
  { pattern: /^(?:monthly |weekly |current |new )?rent$/, predicate: 'pays_rent', objectClass: 'money' },
  { pattern: /^(?:monthly |weekly |annual |yearly |total |travel |food )?budget$/, predicate: 'budget', objectClass: 'money' },
  { pattern: /^(?:current |new |day )?(?:job|occupation|profession|job title|title|role|position)$/, predicate: 'job_title', objectClass: 'any', value: (v) => v.replace(/^(?:a|an|the)\s+/i, '') },
  { pattern: /^(?:current |new )?(?:employer|company|workplace)$/, predicate: 'works_at', objectClass: 'organization' },
  { pattern: /^(?:hometown|home town|home country|birthplace)$/, predicate: 'is_from', objectClass: 'place' },
  { pattern: /^(?:native language|mother tongue|first language|second language|native tongue)$/, predicate: 'speaks', objectClass: 'language', multi: true },
  { pattern: /^(?:bank)$/, predicate: 'banks_with', objectClass: 'organization' },
  { pattern: /^(?:hobby|hobbies|favou?rite hobby|favou?rite pastime|pastime|pastimes)$/, predicate: 'hobby', objectClass: 'any', multi: true },
  { pattern: /^(?:nationality|citizenship)$/, predicate: 'nationality', objectClass: 'any' },
  { pattern: /^age$/, predicate: 'age', objectClass: 'any', value: (v) => v.replace(/\s*(?:years?(?: old)?|yrs?)$/i, '') },
  { pattern: /^(?:goal|dream|plan|ambition|big goal|new year'?s resolution|resolution)$/, predicate: 'wants_to', objectClass: 'any', value: (v) => v.replace(/^to\s+/i, '') },
  { pattern: /^(?:major|field of study|degree)$/, predicate: 'studies', objectClass: 'any', value: (v) => v.replace(/^(?:a\s+degree\s+)?in\s+/i, '') },
  { pattern: /^(?:home|address|place)$/, predicate: 'lives_in', objectClass: 'place', value: (v) => v.replace(/^(?:now\s+)?in\s+/i, '') },

  { pattern: /^(?:diet)$/, predicate: 'diet', objectClass: 'any' },
];

function relationWord(text: string): { predicate: string; negated: boolean; relation: string } | undefined {
  const key = text.toLowerCase().trim();
  const rel = RELATIONS[key];
  if (rel) return { predicate: rel.predicate, negated: false, relation: rel.relation };
  const ex = EX_RELATIONS[key];
  if (ex) return { predicate: ex.predicate, negated: ex.negated, relation: key };
  return undefined;
}

function ownerSubject(owner: string | undefined): SubjectRef | undefined {
  if (!owner) return USER;
  const key = owner.toLowerCase().trim();
  const rel = RELATIONS[key];
  if (rel) return { subject: `user's ${rel.relation}`, subjectType: 'person', confidence: 1 };
  if (GROUP_RELATIONS.has(key)) return { subject: `user's ${key}`, subjectType: 'person', confidence: 1 };
  const pet = petKind(key);
  if (pet) return { subject: `user's ${pet}`, subjectType: 'thing', confidence: 1 };
  return undefined;
}

/** "my X is Y" forms. */
function possessiveAttribute(text: string, referenceTime: Date): FactDraft[] | undefined {
  const m = /^(?:my|our)\s+((?:[\p{L}'’-]+\s+){0,4}?[\p{L}'’-]+)\s+(is|are|was|were|will be|has always been|has been)\s+(.+)$/iu.exec(text);
  if (!m) return undefined;
  const phrase = m[1].replace(/’/g, "'");
  const verb = m[2].toLowerCase();
  const value = m[3].trim().replace(/[.!]+$/, '');
  const tense: Tense = verb === 'was' || verb === 'were' ? 'past' : verb === 'will be' ? 'planned' : 'current';
  if (/^not\b/i.test(value)) return [];
  const raw = `my ${phrase} ${verb}`;

  const parts = phrase.split(/'s\s+/);
  const attribute = parts[parts.length - 1].toLowerCase();
  const owner = parts.length > 1 ? parts[0] : undefined;

  // "my wife's name is Maria", "my dog's name is Rex"
  if (owner && /^(?:first |full |real )?name$/.test(attribute)) {
    const person = objects(value, 'person', 'name', false)[0];
    if (!person) return [];
    const rel = relationWord(owner);
    if (rel) return [draft(USER, rel.predicate, person, `my ${owner}'s name is`, 'current', rel.negated)];
    const pet = petKind(owner);
    if (pet) return [draft(USER, 'has_pet', pet, `my ${owner}'s name is`), draft({ subject: `user's ${pet}`, subjectType: 'thing', confidence: 1 }, 'name', person, `my ${owner}'s name is`)];
    return undefined;
  }

  const subject = ownerSubject(owner);
  if (!subject) return undefined;

  const favorite = /^(?:all[- ]time |absolute |current |very |most )?favou?rite\s+(.+)$/.exec(attribute);
  if (favorite) {
    const predicate = favoritePredicate(favorite[1]);
    const values = objects(value.replace(/^(?:probably|definitely|still)\s+/i, ''), 'any', predicate, /s$/.test(favorite[1]));
    return values.map((v) => draft(subject, predicate, v, raw, tense));
  }
  if (/^(?:birthday|bday|b-day|birth date|date of birth)$/.test(attribute)) {
    const day = monthDay(value, referenceTime);
    if (!day) return [];
    const facts = [draft(subject, 'birthday', day.monthDay, raw)];
    if (day.year) facts.push(draft(subject, 'birth_year', String(day.year), raw));
    return facts;
  }
  if (/^(?:wedding |dating )?anniversary$/.test(attribute)) {
    const day = monthDay(value, referenceTime);
    return day ? [draft(subject, 'anniversary', day.monthDay, raw)] : [];
  }

  if (!owner) {
    const rel = relationWord(attribute);
    if (rel) {
      // "my manager is Karen", "my best friend is called Jonas"; other complements go to the generic path.
      const named = new RegExp(`^(?:called |named )?${CAPITALISED_NAME}$`, 'u').exec(value);
      if (named && !/^(?:A|An|The)\b/.test(named[1]) && !LANGUAGES.has(named[1].toLowerCase())) {
        return [draft(USER, rel.predicate, named[1], raw, tense, rel.negated)];
      }
      const calledLower = /^(?:called|named)\s+([a-z][\p{L}'’-]+)$/iu.exec(value);
      if (calledLower) return [draft(USER, rel.predicate, calledLower[1], raw, tense, rel.negated)];
      return undefined;
    }
  }

  // "my phone is a Pixel 8", "our family car is a 2012 Honda": the possession as named; a vehicle is also what the subject drives.
  const possession = /^(?:(?:family|new|old|current|work|company|main|daily|only|first)\s+)*(car|van|truck|motorbike|motorcycle|bike|scooter|phone|laptop|computer|tablet|watch|camera|guitar|piano|console|tv|e-reader|kindle|boat)$/.exec(attribute);
  if (possession) {
    const named = value.replace(/^(?:a|an|the)\s+/i, '').replace(/^(?:(?:beat-up|battered|old|new|used|second-hand|trusty|little|tiny|big|shiny|red|blue|black|white|silver|grey|gray|green)\s+)+/i, '');
    const thing = objects(named, 'any', 'owns', false)[0];
    if (!thing || /^(?:not|so|very|really|too|broken|dead|dying|great|old|new|fine|ok|okay)\b/i.test(thing)) return [];
    const vehicle = /^(?:car|van|truck|motorbike|motorcycle)$/.test(possession[1]);
    return [draft(subject, 'owns', thing, raw, tense), ...(vehicle ? [draft(subject, 'drives', thing, raw, tense)] : [])];
  }

  for (const rule of ATTRIBUTES) {
    if (!rule.pattern.test(attribute)) continue;
    const unnamed = value.replace(/^(?:called|named)\s+/i, '');
    const shaped = rule.value ? rule.value(unnamed) : unnamed;
    if (rule.predicate === 'diet') {
      const diet = dietOf(shaped);
      return diet ? [draft(subject, 'diet', diet, raw, tense)] : [];
    }
    const values = objects(shaped, rule.objectClass, rule.predicate, rule.multi ?? false);
    return values.map((v) => draft(subject, rule.predicate, v, raw, tense));
  }
  return undefined;
}

const PLURAL_RELATIONS: Record<string, string> = { kids: 'kid', children: 'child', sons: 'son', daughters: 'daughter', sisters: 'sister', brothers: 'brother', cousins: 'cousin', friends: 'friend', twins: 'child' };

/**
 * "a brother named Max", "two kids, Emma and Noah", "a sister called Zoe":
 * the people facts for each name, or undefined when the phrase is not that.
 */
export function relativesNamed(phrase: string): { predicate: string; name: string; negated: boolean; raw: string }[] | undefined {
  const m = new RegExp(
    `^(?:a|an|one|two|three|four|\\d)?\\s*((?:(?:older|younger|little|big|baby|twin|half|step|best|close|old|teenage|grown-up|adult)[ -]?)?[a-z-]+)\\s*,?\\s*(?:named|called|:)?\\s*${CAPITALISED_NAME}((?:\\s*(?:\\(\\d+\\))?\\s*(?:,|and|&)\\s*[A-Z][\\p{L}'’-]+)*)\\s*(?:\\(\\d+\\))?$`,
    'u',
  ).exec(phrase.trim());
  if (!m) return undefined;
  const word = m[1].toLowerCase();
  const rel = relationWord(PLURAL_RELATIONS[word.replace(/^(?:older|younger|little|big|baby|twin|half|step|teenage|grown-up|adult)[ -]?/, '')] ?? word);
  if (!rel) return undefined;
  const names = [m[2], ...(m[3].match(/[A-Z][\p{L}'’-]+/gu) ?? [])];
  return names.map((name) => ({ predicate: rel.predicate, name, negated: rel.negated, raw: `have ${m[1]}` }));
}

/**
 * Facts from whole-clause patterns, or undefined when none applies.
 * `text` is the clause after contraction expansion and filler removal.
 */
export function matchSpecialPatterns(text: string, referenceTime: Date): FactDraft[] | undefined {
  const t = text.trim().replace(/[.!]+$/, '');

  const callMe = new RegExp(`^(?:you can |please |just )?call me ${NAME}$|^(?:people|everyone|everybody|my friends|friends|most people) (?:call|calls) me ${NAME}$|^I go by ${NAME}$`, 'iu').exec(t);
  if (callMe) return [draft(USER, 'name', callMe[1] ?? callMe[2] ?? callMe[3], 'call me')];

  const favoriteOf = /^(.+?)\s+(?:is|are)\s+(?:my|our)\s+(?:absolute\s+|all[- ]time\s+|all time\s+|current\s+|very\s+)?favou?rite\s+([\p{L} ]+?)(?:\s+(?:ever|of all time|right now|at the moment))?$/iu.exec(t);
  if (favoriteOf) {
    const predicate = favoritePredicate(favoriteOf[2]);
    return objects(favoriteOf[1], 'any', predicate, false).map((v) => draft(USER, predicate, v, 'is my favorite'));
  }

  const isMyRelation = new RegExp(`^${CAPITALISED_NAME}\\s+(?:is|was)\\s+(?:my|our)\\s+([\\p{L}' -]+)$`, 'u').exec(t);
  if (isMyRelation) {
    const rel = relationWord(isMyRelation[2]);
    if (rel) return [draft(USER, rel.predicate, isMyRelation[1], `is my ${isMyRelation[2]}`, 'current', rel.negated)];
  }

  const together = new RegExp(
    `^(?:me and |I and )?${NAME}\\s+and\\s+(?:I|me)\\s+(?:are|have been|got|were|just got|recently got)\\s+(married|engaged|dating|together|a couple|friends|best friends|colleagues|roommates|flatmates|divorced)\\b`,
    'iu',
  ).exec(t);
  if (together) {
    const kind = together[2].toLowerCase();
    const predicate =
      kind === 'married' ? 'married_to' : kind === 'divorced' ? 'divorced_from' : /friends/.test(kind) ? 'has_friend' : kind === 'colleagues' ? 'has_colleague' : /mates$/.test(kind) ? 'has_roommate' : 'partner';
    // "My husband Mark and I have been married 12 years": the name without the relation word before it.
    const name = together[1].replace(/^(?:[Mm]y|[Oo]ur)\s+(?:[a-z-]+\s+){1,2}(?=[A-Z])/, '');
    return [draft(USER, predicate, name, `and I are ${kind}`)];
  }
  const splitUp = new RegExp(`^(?:me and |I and )?${NAME}\\s+and\\s+(?:I|me)\\s+(?:just\\s+)?(?:broke up|split up|separated|split)\\b`, 'iu').exec(t);
  if (splitUp) return [draft(USER, 'partner', splitUp[1], 'broke up', 'current', true)];

  const petLoss = /^(?:[Mm]y|[Oo]ur)\s+((?:[a-z]+\s+){0,2}[a-z]+?)(?:\s+[A-Z][a-z]+)?\s+(?:just\s+|recently\s+|sadly\s+)?(?:died|passed away|passed|is dead|was put down|had to be put down|ran away|got lost|was run over)\b/.exec(t);
  if (petLoss) {
    const kind = petKind(petLoss[1]);
    if (kind) return [draft(USER, 'has_pet', kind, 'died', 'current', true)];
  }

  // Injuries: "tore my ACL", "I fractured my foot on the 2nd" -> torn ACL, fractured foot.
  const injury = /^(?:I\s+)?(?:just\s+|recently\s+)?(tore|broke|fractured|sprained|twisted|pulled|dislocated|ruptured|injured|hurt|damaged|bruised|cracked)\s+(?:my|a)\s+((?:left\s+|right\s+|lower\s+)?[a-z]+)\b/i.exec(t);
  if (injury) {
    const participle: Record<string, string> = { tore: 'torn', broke: 'broken', injured: 'injured', hurt: 'hurt', damaged: 'damaged' };
    const verb = injury[1].toLowerCase();
    const part = injury[2].replace(/^(?:left|right|lower)\s+/i, '');
    if (!/^(?:heart|phone|screen|laptop|car|glasses|record|promise|news|bank|back)$/i.test(part) || /^back$/i.test(part)) {
      return [draft(USER, 'has_condition', `${participle[verb] ?? verb} ${part}`, verb)];
    }
  }
  // A condition named by its adjective at the start of a chat message: "epileptic, on lamotrigine".
  const conditionAdjective = /^((?:lactose|gluten)[ -]intolerant|[a-z]+)\b(?=\s*(?:,|so\b|and\b|$))/i.exec(t);
  if (conditionAdjective && CONDITION_ADJECTIVES[conditionAdjective[1].toLowerCase()]) {
    return [draft(USER, 'has_condition', CONDITION_ADJECTIVES[conditionAdjective[1].toLowerCase()], conditionAdjective[1])];
  }
  // "31 today": an age announced on a birthday.
  const birthdayAge = /^(\d{1,3})\s+today\b/i.exec(t);
  if (birthdayAge && Number(birthdayAge[1]) > 0 && Number(birthdayAge[1]) < 120) return [draft(USER, 'age', birthdayAge[1], 'today')];

  const haveRelation = /^I\s+(?:have|have got|got|also have)\s+(.+)$/i.exec(t);
  const relatives = haveRelation ? relativesNamed(haveRelation[1]) : undefined;
  if (relatives) return relatives.map((r) => draft(USER, r.predicate, r.name, r.raw, 'current', r.negated));

  const allergyNoun = /^I\s+(?:have|has|have got|has got|got|developed|have developed|has developed)\s+(?:a\s+|an\s+)?(?:(?:severe|mild|bad|serious|slight|deadly|life-threatening|strong|really bad)\s+)?([\p{L} -]+?)\s+allerg(?:y|ies)\b/iu.exec(t);
  if (allergyNoun) {
    return objects(allergyNoun[1], 'any', 'allergic_to', true).map((v) => draft(USER, 'allergic_to', v, 'have an allergy'));
  }

  const rent = /^I\s+(?:now\s+)?pay\s+(.+?)\s+(?:in|for|of)?\s*rent\b/i.exec(t);
  if (rent) return objects(rent[1], 'money', 'pays_rent', false).map((v) => draft(USER, 'pays_rent', v, 'pay rent'));
  // "my sister pays £900 for her room": a relative's rent is theirs, not the user's.
  const relativeRent = /^my\s+([a-z-]+)\s+(?:now\s+)?pays\s+(.+?)\s+(?:(?:in|of)\s+)?(?:rent\b|for\s+(?:her|his|their)\s+(?:room|flat|place|apartment|house)\b)/i.exec(t);
  const relative = relativeRent ? RELATIONS[relativeRent[1].toLowerCase()] : undefined;
  if (relativeRent && relative) {
    const who = { subject: `user's ${relative.relation}`, subjectType: 'person' as const, confidence: 1 };
    return objects(relativeRent[2], 'money', 'pays_rent', false).map((v) => draft(who, 'pays_rent', v, 'pays rent'));
  }

  const born = /^I\s+was\s+born\s+(?:on\s+|in\s+)?(.+)$/i.exec(t);
  if (born) {
    const day = monthDay(born[1], referenceTime);
    if (day) {
      const facts = [draft(USER, 'birthday', day.monthDay, 'was born on')];
      if (day.year) facts.push(draft(USER, 'birth_year', String(day.year), 'was born on'));
      return facts;
    }
    const year = /^((?:19|20)\d{2})$/.exec(born[1].trim());
    if (year) return [draft(USER, 'birth_year', year[1], 'was born in')];
  }

  return possessiveAttribute(t, referenceTime);
}
