import nlp from 'compromise';
import { ANY_OBJECT, lookupPredicate } from '../taxonomy.js';

/**
 * Last check on a fact's object before it is emitted (issue 8, precision). The clause parser sometimes
 * hands over a word that is no thing at all: a modal or auxiliary left from a hedge ("my husband might
 * get transferred" -> married_to "might"), an adverb or participle ("studies hard", "divorce finalized",
 * "eats way too much"), a time unit from a rate ("3 hrs/day" -> plays "day"), the start of a coordinated
 * clause ("and self-acceptance"), a negated infinitive ("I'd rather not say"), or a clause read as a
 * noun phrase ("handicap's 14"). `cleanObject` trims what is recoverable (leading adverbs, "grand" left
 * from "5 grand", trailing "for a", "at some point", "and its dying") and returns undefined when nothing
 * usable is left.
 */

const FUNCTION_WORDS = new Set([
  'might', 'may', 'must', 'will', 'would', 'could', 'should', 'can', 'shall', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am',
  'do', 'does', 'did', 'have', 'has', 'had', 'and', 'or', 'but', 'so', 'because', 'if', 'then', 'than', 'that', 'which', 'who',
  'it', 'this', 'these', 'those', 'they', 'them', 'he', 'she', 'him', 'her', 'we', 'us', 'you', 'me', 'one', 'some', 'any', 'all',
  'way', 'lot', 'bit', 'least', 'most', 'more', 'less', 'much', 'many', 'hard', 'up', 'down', 'out', 'off', 'in', 'on', 'at', 'for',
  'day', 'days', 'night', 'nights', 'week', 'weeks', 'month', 'months', 'year', 'years', 'hour', 'hours', 'minute', 'minutes', 'time', 'times',
  'today', 'tonight', 'tomorrow', 'yesterday', 'now', 'again', 'here', 'there', 'everything', 'anything', 'nothing', 'something', 'whatever',
  // "she'll attend online": how, not what.
  'online', 'virtually', 'remotely', 'offline',
]);

/** Predicates whose objects are literal values (numbers, amounts, dates): left alone. */
const LITERAL = new Set(['age', 'birthday', 'anniversary', 'birth_year', 'salary', 'pays_rent', 'budget', 'height', 'weight', 'net_worth']);

const LEADING_ADVERB = /^(?:always|usually|often|sometimes|never|mostly|normally|generally|really|just|still|also|only|even|basically|definitely)\s+(?:the\s+|a\s+|an\s+)?/i;
const LEFTOVER_AMOUNT_WORD = /^(?:grand|k|quid|bucks)\s+(?=\S)/i;
const TRAILING = [
  // "beans on toast for a (while)": a preposition whose noun phrase was cut off.
  /\s+(?:for|with|to|of|at|in|on|by|from)\s+(?:a|an|the|him|her|them|it|me|us)$/i,
  // "get to 12 by Christmas", "take my mom to Ireland for her 60th": the deadline or occasion is no part of the aim.
  /\s+(?:by|before)\s+(?:christmas|easter|the summer|summer|winter|spring|autumn|the end of\s+.*|next\s+\w+|I\s+.*)$/i,
  /\s+for\s+(?:my|her|his|their|our)\s+\d+(?:st|nd|rd|th)(?:\s+birthday)?$/i,
  // "decaf after 3pm": a time of day or date is no part of the thing.
  /\s+(?:after|before|until|till|by)\s+\d.*$/i,
  /\s+(?:all day|all night|every day|every night|every week|every weekend|all the time|a lot|at weekends|on weekends|on the weekend)$/i,
  /\s+(?:at some point|one day|someday|some day|out of spite|for fun|for now|for a while)$/i,
  // "gluten intolerance not celiac just intolerance": a contrast that follows the thing.
  /\s+(?:not|though|although|but not)\s+[a-z].*$/,
  // "MacBook Air and its dying": a new clause about the object.
  /\s+and\s+(?:its|it['’]s|it|it is|he|she|they|he['’]s|she['’]s|they['’]re)\b.*$/i,
];
const RECIPIENT = /^(?:(?:the|our|my|his|her|their)\s+)?(?:kids|children|son|daughter|boys|girls|wife|husband|mum|mom|dad|parents|partner|family|him|her|them|us|me|myself|ourselves)\s+(?=(?:a|an|some)\s)(?:a|an|some)\s+/i;
/** Objects that carry a pronoun point at something said elsewhere ("pass it on to others", "help make their lives better"). */
const PRONOUN = /\b(?:it|its|them|their|theirs|those|something|someone|somebody|her|him|his|they)\b/i;
const PRONOUN_SENSITIVE = new Set(['wants_to', 'wants_to_visit', 'likes', 'prefers', 'dislikes']);

const NUMBER_WORD = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|oh|and';
const YEAR_IN_WORDS = new RegExp(String.raw`^(?:(?:${NUMBER_WORD})[\s-]+){2,}in\s+(?=\S)`, 'i');
const TASTE = new Set(['likes', 'dislikes', 'prefers', 'hobby', 'eats', 'drinks']);

const adverbCache = new Map<string, boolean>();
/** A lowercase single word compromise reads as an adverb, modal, preposition or conjunction only. */
function isFunctionWord(word: string): boolean {
  if (FUNCTION_WORDS.has(word)) return true;
  let known = adverbCache.get(word);
  if (known === undefined) {
    const doc = nlp(word);
    known = doc.has('(#Adverb|#Modal|#Preposition|#Conjunction|#Determiner|#Pronoun)') && !doc.has('#Noun');
    if (adverbCache.size > 5000) adverbCache.clear();
    adverbCache.set(word, known);
  }
  return known;
}

const participleCache = new Map<string, boolean>();
/** "finalized", "falling": a bare verb form that compromise does not also read as a noun. */
function isBareVerbForm(word: string): boolean {
  let known = participleCache.get(word);
  if (known === undefined) {
    const doc = nlp(word);
    known = doc.has('(#PastTense|#Participle)') && !doc.has('#Noun') && !/ing$/.test(word);
    if (participleCache.size > 5000) participleCache.clear();
    participleCache.set(word, known);
  }
  return known;
}

/** Families where a gerund or participle cannot be the object (people, places, work ties, possessions). */
const NO_VERB_FORM = new Set(['people', 'places', 'ownership', 'financial']);

/** The object as it should be stored, or undefined when it names nothing. */
export function cleanObject(predicate: string, object: string): string | undefined {
  if (object === ANY_OBJECT || LITERAL.has(predicate)) return object;
  let o = object.trim();
  for (let i = 0; i < 3 && LEADING_ADVERB.test(o); i++) o = o.replace(LEADING_ADVERB, '');
  o = o.replace(LEFTOVER_AMOUNT_WORD, '');
  // "born in nineteen seventy two in glasgow": a year in words before the place.
  if (lookupPredicate(predicate)?.family === 'places') o = o.replace(YEAR_IN_WORDS, '');
  // "got our kids a trampoline": the recipient comes before the thing.
  o = o.replace(RECIPIENT, '');
  for (const re of TRAILING) o = o.replace(re, '');
  o = o.trim();
  // "a proper Sunday roast", "a good book": praise is no part of a taste.
  if (TASTE.has(predicate) || predicate.startsWith('favorite_')) o = o.replace(/^(?:proper|good|decent|nice|great|lovely|massive|huge)\s+(?=\S)/, '');
  // "a peanut allergy": allergens are named in the plural, as people say them ("allergic to peanuts").
  if (predicate === 'allergic_to') o = o.replace(/^(peanut|nut|tree nut|egg|cat|dog|bee|wasp|almond|cashew|walnut|hazelnut|kiwi|prawn|shrimp|mushroom|tomato|strawberry)$/i, (w) => (/y$/i.test(w) ? `${w.slice(0, -1)}ies` : /o$/i.test(w) ? `${w}es` : `${w}s`));
  if (!o) return undefined;
  // "staying in shape", "in love", "in trouble": idioms, not homes.
  if (predicate === 'lives_in' && /^(?:shape|love|trouble|touch|charge|bed|pain|tears|denial|limbo|debt|a mess|a rush|time|hospital|recovery)$/i.test(o)) return undefined;
  const words = o.split(/\s+/);
  const first = words[0].toLowerCase();
  // "and self-acceptance", "not say", "might", "will".
  if (/^(?:and|or|but|not|no|might|will|would|could|should|can|may|must)$/.test(first) && words.length > 1) return undefined;
  // "the Paris thing", "non-bio stuff": a vague head names nothing that can be stored.
  if (/^(?:[\p{L}'’-]+\s+)+(?:thing|things|stuff)$/iu.test(o) || /^(?:thing|things|stuff)$/i.test(o)) return undefined;
  // "went to school with him": a bare school with no name is no place of study.
  if (predicate === 'studies_at' && /^(?:school|college|uni|university|high school|grad school)$/i.test(o)) return undefined;
  // "whatever's left", "something new": an indefinite pronoun names nothing.
  if (/^(?:whatever|whoever|whichever|something|anything|everything|nothing|someone|anyone|everyone)(?:['’]s)?$/i.test(first)) return undefined;
  // "handicap's 14": a clause ("X is N"), not a noun phrase.
  if (/\p{L}['’]s\s+\d/u.test(o)) return undefined;
  if (PRONOUN_SENSITIVE.has(predicate) && PRONOUN.test(o)) return undefined;
  // "on lease", "throughout this journey": an adjunct, not a thing ("with parents" is a labelled home).
  if (words.length > 1 && /^(?:on|in|at|from|by|of|throughout|during|about|into|onto|via)$/.test(first)) return undefined;
  // "I'm Muslim": a faith or diet is no name.
  if (predicate === 'name' && /^(?:muslim|christian|catholic|protestant|jewish|hindu|sikh|buddhist|mormon|atheist|agnostic|vegan|vegetarian|pescatarian|halal|kosher)$/i.test(o)) return undefined;
  // "acquired by Oracle": a passive clause, not a name.
  if (/^(?:[a-z]+ed|bought|sold|taken|run|made|held|given)\s+by\b/.test(o)) return undefined;
  // "I'm self-employed so it varies": an employment status, not a job title ("retired" is kept, as labelled).
  if (predicate === 'job_title' && words.length === 1 && first !== 'retired' && /^(?:self-employed|unemployed|employed|jobless)$/.test(first)) return undefined;
  if (words.length === 1 && /^[a-z'’-]+$/.test(o)) {
    if (isFunctionWord(first)) return undefined;
    const family = lookupPredicate(predicate)?.family;
    if (family && NO_VERB_FORM.has(family) && isBareVerbForm(first)) return undefined;
    // "handicap's 14 and falling": a gerund names no club, person or place.
    if (/ing$/.test(first) && (family === 'people' || family === 'places' || predicate === 'member_of') && !nlp(first).has('#Noun')) return undefined;
  }
  return o;
}
