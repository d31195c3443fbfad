import { findAmount } from '../amount.js';
import type { ObjectClass } from '../taxonomy.js';
import {
  AND_COMPOUNDS,
  DIETS,
  MONEY,
  UNRESOLVED_OBJECTS,
  isAppointmentPhrase,
  isClubPhrase,
  isConditionPhrase,
  isEventPhrase,
  isJobPhrase,
  isLanguage,
  isLoanPhrase,
  isMedicationPhrase,
  isActivityPhrase,
  isCompanyPhrase,
  isOwnablePhrase,
  isSchoolPhrase,
  isSkillPhrase,
  petKind,
} from './lexicon.js';
import { readVerb, toGerund } from './inflection.js';
import { cleanEventObject } from './event-objects.js';
import { cleanTasteObject, isTastePredicate } from './preference-objects.js';
import { startsWithBareVerb } from './word-class.js';

/**
 * Turns the words after a matched verb into clean object values: cut at the
 * end of the noun phrase, trimmed of articles and fillers, split into list items
 * for multi-valued predicates, and checked against the expected object class.
 */

const CLAUSE_BOUNDARY =
  /\s+(?:because|cause|cuz|since|but|although|though|while|whereas|when|whenever|where|which|who|whom|whose|that|so that|so|if|unless|until|as long as|even though|except|and then|and i|and we|and my|and it|and that|or so|right now|at the moment|at the minute|at present|these days|nowadays|for now|anymore|any more|again|as well|either|lol|haha|tbh|btw|already|yet|too|also|now|though|instead|anyway|honestly|actually|i think|i guess|i believe|or something|or whatever|and stuff|and all)\b.*$/i;
const PUNCTUATION_BOUNDARY = /\s*(?:[;:([{]|\s[-–—]\s|\.\.\.|…|[!?]|(?<!\b(?:St|Dr|Mt|Mr|Mrs|Ms|Jr|Sr|Inc|Ltd|Co|Corp|No|vs|Ave|Rd|Prof))\.(?=\s|$)).*$/;
const HABITUAL_TAIL =
  /\s+(?:(?:every|each)\s+(?:single\s+)?(?:day|morning|evening|night|week|weekend|month|year|summer|winter|time|sunday|monday|tuesday|wednesday|thursday|friday|saturday)|on\s+(?:the\s+)?weekends?|on\s+(?:sundays|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays)|in\s+(?:my|our)\s+(?:free|spare)\s+time|a\s+lot|so\s+much|very\s+much|a\s+bunch|a\s+ton|like\s+crazy|daily|regularly|sometimes|often|occasionally|at\s+night|in\s+the\s+(?:morning|evening|afternoon)s?|at\s+home|at\s+work|for\s+work|for\s+fun|for\s+a\s+living|every\s+now\s+and\s+then|from\s+time\s+to\s+time|(?:\w+\s+)?times?\s+a\s+(?:week|day|month|year)|twice\s+a\s+\w+|once\s+a\s+\w+|twice|once|(?:a\s+few|many|several|a\s+couple\s+of|\d+|two|three|four|five)\s+times|some\s*day|one\s+day|soon|eventually|in\s+the\s+future|most\s+(?:days|weekends|evenings|mornings|nights)|with\s+(?:my|our|his|her|their|friends|family|colleagues|the\s+kids|some\s+friends)\b|more\s+than\s+(?:anything|ever)|the\s+most|most\s+of\s+all|best|a\s+little$|a\s+bit$|completely|entirely|totally|altogether|for\s+good|permanently|fully|these\s+days|full[- ]time|part[- ]time|remotely|from\s+home)\b.*$/i;
const NAMED = /^(.*?)\s*,?\s+(?:named|called|aka)\s+(.+)$/i;
const LEADING_FILLER =
  /^(?:way too much|way too many|too much|too many|loads of|a lot of|lots of|plenty of|tons of|a bit of|a little bit of|a little|a few|all kinds of|all sorts of|the|a|an|my|our|some|any|both|all|many|most|various|different|really|very|absolutely|pretty much|kind of|sort of|about|around|roughly|approximately|almost|nearly|just|also|still|mainly|mostly|only|currently|now|literally|definitely|basically|fluent|fluently|basic|conversational)\s+/i;
const DESCRIPTIVE_ADJECTIVE = /^(?:new|old|brand new|brand-new|used|second-hand|secondhand|first|little|big|small|cute|lovely|beautiful|tiny|adorable|sweet|own|sick|elderly|gorgeous|fluffy|rescue|rescued|lazy|crazy|two|three|four|five|2|3|4|5|several|couple of|pair of)\s+/i;
const PREPOSITION_START = /^(?:with|to|at|in|on|for|about|from|by|of|into|onto|over|under|around|through|after|before|like|as|than|out)\b/i;
const PRONOUN_START = /^(?:i|we|he|she|they|you|your|yours|it|me|us|them|him|her|this|that|these|those|what|how|why|when|where|who|whom|whether|if|lot|nothing|something|anything|everything)\b/i;
/** Objects about the assistant ("your style", "learning a lot from you") are not facts about the user. */
const MENTIONS_ASSISTANT = /\b(?:you|your|yours|yourself)\b/i;
const POSSESSIVE_START = /^(?:my|our|his|her|their|your)\s/i;

const CLASS_TAIL: Partial<Record<ObjectClass, RegExp>> = {
  place: /\s+(?:with|for|to|as|at|from|because|after|before|during|on|by|via|and|since|where|which|who|but|so|when|while|until|for\s+work|for\s+school)\s+.*$/i,
  company: /\s+(?:in|as|for|with|since|from|on|at|to|and|doing|where|near|because|but|so|when|while|until|after|before|which|who|during|under|full|part|late|early|today|yesterday)\b.*$/i,
  organization: /\s+(?:in|as|for|with|since|from|on|at|to|and|doing|where|near|because|but|so|when|while|until|after|before|which|who|during|under|full|part)\b.*$/i,
  club: /\s+(?:in|as|for|with|since|from|on|at|to|and|where|near|because|but|so|when|while|until|after|before)\b.*$/i,
  field: /\s+(?:in|as|for|with|since|from|on|at|and|because|but|so|when|while|until)\b.*$/i,
  job: /\s+(?:at|for|with|in|from|since|and|because|but|so|when|while|until|who|which|on)\b.*$/i,
  language: /\s+(?:at|with|in|from|since|because|but|so|when|while|until|who|which|on|fluently|natively|well|pretty|quite|a\s+bit|a\s+little|at\s+home)\b.*$/i,
  pet: /\s+(?:at|with|in|from|since|because|but|so|when|while|until|who|which|on|for)\b.*$/i,
  ownable: /\s+(?:with|in|from|since|because|but|so|when|while|until|who|which|on|for|at|near|last|this|outside)\b.*$/i,
};

const OWNED_TAIL = /\s+(?:with|in|from|since|because|but|so|when|while|until|who|which|on|for|at|near|last|this|outside)\b.*$/i;
/** Predicate-specific ends of the object phrase. */
const PREDICATE_TAIL: Record<string, RegExp> = {
  prefers: /\s+(?:over|to|rather than|instead of|than|more than)\b.*$/i,
  owns: OWNED_TAIL,
  drives: OWNED_TAIL,
  uses: /\s+(?:for|at|in|on|with|since|because|but|when|while)\b.*$/i,
  subscribes_to: /\s+(?:subscription|membership|account|plan|premium)\b.*$/i,
  hobby: /\s+(?:with|at|in|on|for)\b.*$/i,
  graduated_from: /\s+(?:with|in|as|and|where|after)\b.*$/i,
};

const NOT_PLACES = /^(?:here|there|home|town|the area|the city|the same place|the same city|the same town|the same|this city|this town|this country|the country|it|that|abroad|overseas|bed|work|school|college|church|class|sleep|jail|prison|the future|the past|space|outer space|another planet|future|past|moon)$/i;
const NOT_PLACE_START = /^(?:bed|work|school|church|class|sleep|home|jail|prison|lunch|dinner|breakfast|town|the\s+(?:gym|office|doctor|dentist|store|shop|toilet|bathroom|bed))\b/i;
const HOUSING = /^(?:(?:a|an|the|my|our)\s+)?(?:\w+\s+)?(?:flat|apartment|house|home|dorm|room|studio|basement|condo|tent|van|car|hotel|hostel|bungalow|cottage|loft|penthouse|townhouse|place|building|neighborhood|neighbourhood|area|suburb|street)s?$/i;
const THE_PLACES = /^the (?:us|usa|uk|united states|united kingdom|netherlands|philippines|states|alps|bahamas|caribbean|maldives|czech republic|dominican republic|balkans|middle east|emirates|uae|highlands|lake district|rockies|andes|canaries|canary islands|azores|seychelles|gambia|bay area|midwest|south|north|east|west coast|east coast|ruhr|black forest|hague|vatican|riviera|amalfi coast)$/i;
const NOT_ORGANIZATIONS = /^(?:home|night|nights|weekends|the weekend|the moment|myself|my own|a distance|remote|remotely|it|that|this|them|there|here|all|once|least|last|first|the same place|the same company|the same|same place|same company|a lot|lots|full time|part time|everything|random|heart)$/i;

export interface ObjectRequest {
  objectClass: ObjectClass;
  predicate: string;
  multi: boolean;
}

function cut(text: string, pattern: RegExp): string {
  return text.replace(pattern, '').trim();
}

function stripLeadingFillers(text: string, keepCapitalisedThe = true): string {
  let s = text.trim();
  for (let guard = 0; guard < 6; guard++) {
    if (keepCapitalisedThe && /^The\s+[A-Z]/.test(s)) return s;
    const next = s.replace(LEADING_FILLER, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

function stripTrailingPunctuation(text: string): string {
  return text
    .replace(/\s+(?:and|or|but|with|plus|&)$/i, '')
    .replace(/[\s.,!?;:)"'”’]+$/g, '')
    .replace(/\s*(?::\)|:\(|:D|;\)|<3|\p{Extended_Pictographic})+\s*$/u, '')
    .replace(/^["'“‘(]+/, '')
    .trim();
}

function splitList(text: string): string[] {
  const lower = text.toLowerCase();
  if (AND_COMPOUNDS.has(lower.replace(/^(?:the|a|an)\s+/, ''))) return [text];
  // Protect known "X and Y" compounds inside longer lists.
  let protectedText = text;
  const shields: string[] = [];
  for (const compound of AND_COMPOUNDS) {
    const idx = protectedText.toLowerCase().indexOf(compound);
    if (idx >= 0 && compound.includes(' and ')) {
      shields.push(protectedText.slice(idx, idx + compound.length));
      protectedText = `${protectedText.slice(0, idx)}\u0000${shields.length - 1}\u0000${protectedText.slice(idx + compound.length)}`;
    }
  }
  // A comma list is an enumeration only when a conjunction joins its last item ("tea, coffee and cake");
  // otherwise what follows the first comma is a remark ("Wembley, insane").
  const commaParts = protectedText.split(/\s*,\s*(?!\d)/);
  if (commaParts.length > 1 && !/(?:^|\s)(?:and|or|&|as well as|plus)\s/i.test(commaParts[commaParts.length - 1])) protectedText = commaParts[0];
  return protectedText
    .replace(/^both\s+/i, '')
    .split(/\s*,\s*(?:and\s+|or\s+|as well as\s+)?(?!\d)|\s+(?:and|or|as well as|plus|&)\s+|\s*\/\s*/i)
    .map((item) => item.replace(/\u0000(\d+)\u0000/g, (_m, n) => shields[Number(n)]))
    .map((item) => item.trim())
    .filter(Boolean);
}

/** "to cook" -> "cooking"; other items unchanged. */
function infinitiveToGerund(item: string): string {
  const match = /^(?:to\s+)?([a-z]+)(\b.*)$/i.exec(item);
  if (!match) return item;
  const readings = readVerb(match[1]);
  if (!readings.some((r) => r.form === 'base')) return item;
  return `${toGerund(readings.find((r) => r.form === 'base')!.lemma)}${match[2]}`;
}

function personName(text: string): string | undefined {
  const named = NAMED.exec(text);
  const candidate = named ? named[2] : text;
  const capitalised = /^((?:[A-Z][\p{L}'’-]*)(?:\s+(?:[A-Z][\p{L}'’-]*|van|von|de|da|di|del|der|le|la)){0,3})/u.exec(candidate.trim());
  if (capitalised) return capitalised[1].replace(/\s+(?:van|von|de|da|di|del|der|le|la)$/i, '');
  const words = candidate.trim().split(/\s+/);
  if (words.length === 1 && /^[a-z][a-z'-]+$/.test(words[0]) && !UNRESOLVED_OBJECTS.has(words[0])) return words[0];
  return undefined;
}

function isPlace(item: string, predicate: string): boolean {
  const lower = item.toLowerCase();
  if (NOT_PLACES.test(lower) || NOT_PLACE_START.test(lower) || UNRESOLVED_OBJECTS.has(lower)) return false;
  if (/^(?:my|our|his|her|their|your)\b/i.test(item)) return false;
  if (predicate === 'lives_in' && HOUSING.test(lower)) return false;
  // A home is named, not described with amounts: not "cover full rent of $2,400 alone".
  if (predicate === 'lives_in' && (/[$£€\d]/.test(item) || (/^[a-z]/.test(item) && item.split(/\s+/).length > 3))) return false;
  // "moved to another team", "moved to a new role": work units, not places.
  if (/^(?:another|a|an|the|a new|a different|new)\s+(?:\w+\s+)?(?:team|department|dept|role|job|position|project|company|office|floor|desk|group|unit|shift|school|class|gym)$/i.test(item)) return false;
  if (predicate === 'visited' || predicate === 'trip_to') {
    if (THE_PLACES.test(lower)) return true;
    // "going to vomit", "going to sit here": "going to" + a verb is a plan, not a trip.
    if (/^[a-z]/.test(item) && startsWithBareVerb(lower)) return false;
    if (/^(?:the|a|an|some)\s/i.test(item) && !/^The\s+[A-Z]/.test(item)) return false;
    if (isEventPhrase(item) || isAppointmentPhrase(item)) return false;
    // Trips and visits are to named places: "Japan", "new york"; not "38 states", "a Spanish conversation group".
    if (/\d/.test(item) || (!/^[A-Z]/.test(item) && item.split(/\s+/).length > 2)) return false;
    if (/\b(?:group|parade|phone|club|class|course|party|stadium|game|show|meeting|summary|celebrate|doctor|dentist)s?\b/i.test(lower)) return false;
    if (/^(?:the )?(?:gym|doctor|dentist|beach|park|office|store|shop|supermarket|mall|cinema|movies|pub|bar|restaurant|party|concert|hospital|bank|library|airport|station|pool|lake|mountains|bathroom|toilet|meeting|class|bed|sleep|work|school|church|college|university|uni)$/i.test(lower)) return false;
  }
  return /\p{L}/u.test(item);
}

function passesClass(item: string, request: ObjectRequest): boolean {
  switch (request.objectClass) {
    case 'place':
      return isPlace(item, request.predicate);
    case 'organization':
      return !NOT_ORGANIZATIONS.test(item) && !UNRESOLVED_OBJECTS.has(item.toLowerCase()) && !/^(?:my|our|his|her|their)\s/i.test(item);
    case 'pet':
      return petKind(item) !== undefined;
    case 'ownable':
      return isOwnablePhrase(item);
    case 'condition':
      return isConditionPhrase(item);
    case 'medication':
      return isMedicationPhrase(item);
    case 'loan':
      return isLoanPhrase(item);
    case 'appointment':
      return isAppointmentPhrase(item);
    case 'event':
      return isEventPhrase(item);
    case 'language':
      return isLanguage(item);
    case 'money':
      return MONEY.test(item);
    case 'job':
      return isJobPhrase(item);
    case 'club':
      return isClubPhrase(item);
    case 'school':
      return isSchoolPhrase(item);
    case 'activity':
      return isActivityPhrase(item);
    case 'diet':
      return dietOf(item) !== undefined;
    case 'skill':
      return isSkillPhrase(item);
    case 'company':
      return isCompanyPhrase(item) && !NOT_ORGANIZATIONS.test(item);
    case 'person':
      return personName(item) !== undefined;
    default:
      return true;
  }
}

/** Final display form of one item for its class. */
function shapeItem(item: string, request: ObjectRequest): string | undefined {
  switch (request.objectClass) {
    case 'pet':
      return petKind(cut(item, NAMED));
    case 'person':
      return personName(item);
    case 'medication': {
      // "50mcg levothyroxine" is written "levothyroxine 50mcg".
      const dosed = /^(\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu|g))\s+(.+)$/i.exec(item);
      return dosed ? `${dosed[2]} ${dosed[1]}` : item;
    }
    case 'loan': {
      // "$22k left on my student loans" is the student loans; the amount is not the loan.
      const m = /((?:[a-z-]+\s+){0,2}?(?:mortgage|loans?|debts?|overdraft|lease|credit card(?: debt)?))\b/i.exec(item.replace(/^.*?\b(?:on|of|for)\s+(?:my|our|the|a|an)\s+/i, ''));
      return m ? m[1].replace(/^(?:\S*\d\S*\s+)+/, '').replace(/^(?:a|an|the|my|our)\s+/i, '') : item;
    }
    case 'money': {
      const amount = new RegExp(`(?:${MONEY.source})(?:\\s+(?:a|per|an|each|every)\\s+(?:year|month|hour|week|day)|\\s+(?:annually|monthly|yearly|weekly|hourly|gross|net|before tax|after tax))*`, 'i').exec(item);
      return amount ? amount[0].trim() : undefined;
    }
    case 'organization': {
      const named = NAMED.exec(item);
      return named ? named[2] : item;
    }
    case 'language':
      return item.charAt(0).toUpperCase() + item.slice(1).toLowerCase();
    case 'diet':
      return dietOf(item);
    default:
      return item;
  }
}

/**
 * Object values for `raw` (the words after the verb phrase). Empty when the
 * words hold no acceptable object.
 */
export function extractObjects(raw: string, request: ObjectRequest): string[] {
  const oneOf = (pattern?: RegExp) => (pattern ? (s: string) => cut(s, pattern) : (s: string) => s);
  // An amount keeps its period and qualifiers as written ("£1,350 a month", "$4,300/mo", "4k net a month").
  const amount = request.objectClass === 'money' ? findAmount(raw) : undefined;
  if (amount) return [amount];
  let text = raw.trim();
  text = cut(text, PUNCTUATION_BOUNDARY);
  text = cut(text, CLAUSE_BOUNDARY);
  if (request.objectClass !== 'appointment' && request.objectClass !== 'event') text = cut(text, HABITUAL_TAIL);
  if (!request.multi || request.objectClass === 'person' || request.objectClass === 'place') text = text.split(/\s*,\s+|\s*,(?!\d)/)[0];
  const predicateTail = PREDICATE_TAIL[request.predicate];
  if (predicateTail) text = cut(text, predicateTail);
  text = oneOf(request.objectClass === 'organization' && NAMED.test(text) ? undefined : CLASS_TAIL[request.objectClass])(text);
  if (request.objectClass === 'organization') {
    const named = NAMED.exec(text);
    if (named) text = named[2];
  }
  text = stripTrailingPunctuation(text);
  // "left my keys", "went to my office": a possessive never starts a proper name.
  if (POSSESSIVE_START.test(text) && ['organization', 'company', 'place', 'person', 'school'].includes(request.objectClass)) return [];
  if (MENTIONS_ASSISTANT.test(text)) return [];
  text = stripLeadingFillers(text);
  if (!text) return [];

  const infinitive = /^to\s+[a-z]/i.test(text);
  const items = request.multi && request.objectClass !== 'person' && request.objectClass !== 'money' ? splitList(text) : [text];
  const out: string[] = [];
  for (let item of items) {
    item = trimTail(stripTrailingPunctuation(stripLeadingFillers(item)), request);
    if (['owns', 'has_pet', 'drives', 'uses'].includes(request.predicate)) {
      for (let guard = 0; guard < 3; guard++) item = item.replace(DESCRIPTIVE_ADJECTIVE, '').replace(/^(?:19|20)\d{2}\s+(?=\S)/, '');
      item = cut(item, /\s+(?:named|called)\s+.*$/i);
    }
    if (infinitive && ['likes', 'dislikes', 'prefers', 'hobby'].includes(request.predicate)) item = infinitiveToGerund(item);
    if (isTastePredicate(request.predicate)) item = cleanTasteObject(item) ?? '';
    if (request.predicate === 'attending' || request.predicate === 'has_appointment') item = cleanEventObject(item);
    if (infinitive && request.predicate === 'learning') item = item.replace(/^to\s+/i, '');
    if (!item || UNRESOLVED_OBJECTS.has(item.toLowerCase())) continue;
    // A list item that starts with a finite verb is a new clause ("kept Spotify"), not an object.
    if (items.length > 1 && /^[a-z]/.test(item) && readVerb(item.split(/\s+/)[0]).some((r) => r.form === 'past' || r.form === 'third')) continue;
    if (request.objectClass !== 'money' && (PREPOSITION_START.test(item) || PRONOUN_START.test(item))) continue;
    // "diagnosed with IBS finaly after 2 yrs ...": a known condition name ends the object.
    if (request.predicate === 'has_condition' && request.objectClass === 'any' && !isConditionPhrase(item)) item = namedPrefix(item, { ...request, objectClass: 'condition' }) ?? item;
    if (item.split(/\s+/).length > (request.objectClass === 'any' || request.objectClass === 'appointment' ? 8 : 6)) continue;
    if (!passesClass(item, request)) {
      const named = namedPrefix(item, request);
      if (!named) continue;
      item = named;
    }
    if (request.objectClass === 'medication') item = item.replace(DOSE_THEN_SCHEDULE, '$1');
    const shaped = shapeItem(item, request);
    if (shaped && !out.includes(shaped)) out.push(shaped);
  }
  return out;
}

/** Classes recognised by their name: the object may run on past it ("IBS finaly after 2 yrs", "psoriasis on my elbows"). */
const PREFIX_CLASSES = new Set<ObjectClass>(['condition', 'medication']);
const DOSE_THEN_SCHEDULE = /^(\S.*?\s\d+(?:\.\d+)?\s?(?:mg|mcg|µg|ml|iu|g))\b.+$/i;
/** A condition or drug name followed by one of these is a modifier of another thing ("COVID booster", "flu shot"). */
const MODIFIED_HEAD = /^(?:booster|shot|jab|vaccine|vaccination|test|tests|scan|appointment|clinic|ward|team|nurse|doctor|specialist|meds|medication|tablets?|pills?|season|symptoms|awareness|charity|research|patients?)$/i;

/** The longest leading words of `item` that pass the class test, for classes recognised by name. */
function namedPrefix(item: string, request: ObjectRequest): string | undefined {
  if (!PREFIX_CLASSES.has(request.objectClass)) return undefined;
  const words = item.split(/\s+/);
  for (let n = Math.min(words.length - 1, 4); n >= 1; n--) {
    const prefix = words.slice(0, n).join(' ');
    if (!/^(?:and|or|of|with|on|in|the|a|my)$/i.test(words[n - 1]) && !MODIFIED_HEAD.test(words[n]) && passesClass(prefix, request)) return prefix;
  }
  return undefined;
}

/** Words that end a noun phrase in chat: degree adverbs, ages, manner, companions, a finite verb starting a new clause. */
const GENERIC_TAIL =
  /\s+(?:after\s+all|at\s+(?:all|\d+|the\s+moment)|finally|fluently|properly|religiously|obsessively|non-?stop|for\s+(?:years|ages|\d+|a\s+(?:while|bit|living)|the\s+\w+|my\s+\w+|our\s+\w+)|since\s+.*|every\s+\w+|each\s+\w+|from\s+(?:youtube|home|scratch|work)|(?:is|are|was|were|makes|made|gets|keeps|feels|seems|looks)\s|in\s+(?:19|20)\d{2}|(?:last|next|this)\s+(?:week|month|year|spring|summer|autumn|fall|winter|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday|term|semester))\b.*$/i;
/** Classes whose objects are names or things: a gerund after the first word starts a new phrase ("Tokyo teaching English"). */
const NAME_LIKE = new Set<ObjectClass>(['place', 'organization', 'company', 'person', 'ownable', 'pet', 'medication', 'condition', 'school', 'club', 'language']);

function trimTail(item: string, request: ObjectRequest): string {
  let out = cut(item, GENERIC_TAIL)
    .replace(/\s+(?:myself|ourselves|himself|herself|themselves|originally|specifically)$/i, '')
    // "Chicago ~7 years", "Diet Coke a day": a length of time or a rate is not part of the name.
    .replace(/\s+(?:~|about\s+|around\s+|nearly\s+|almost\s+)?\d+\s*(?:years?|yrs?|months?|mos?)\b.*$/i, '');
  if (request.predicate === 'drinks' || request.predicate === 'eats') out = out.replace(/\s+(?:a|per|each)\s+(?:day|week|night|month)$/i, '');
  // "~4 cans of Diet Coke", "two cups of tea": the drink, not the quantity.
  if (request.predicate === 'drinks' || request.predicate === 'eats') out = out.replace(/^~?(?:\d+|a|one|two|three|four|five|six|a few|a couple of)\s+(?:cans?|cups?|glasses?|bottles?|pints?|shots?|mugs?|pieces?|slices?|bowls?)\s+of\s+/i, '');
  // "escitalopram ten milligrams", "metformin 500": the drug named without a spelled-out or unit-less dose.
  if (request.objectClass === 'medication') out = out.replace(/^(\S+)\s+(?:(?:[a-z]+|\d+)\s+)?(?:milligrams?|micrograms?)$/i, '$1').replace(/^([A-Za-z]\S*)\s+\d+$/, '$1');
  // "a new flat in Glasgow" is Glasgow.
  if (request.objectClass === 'place') out = out.replace(/^(?:(?:user's|my|our|his|her|their)\s+)?(?:(?:new|little|tiny|small|big|nice|lovely|rented|shared|childhood|family|care|nursing|retirement|student)\s+)*(?:flat|house|apartment|place|home|bungalow|cottage|studio|condo|room|village|town|suburb|area|bedsit|houseshare|house share|flatshare|flat share|maisonette|terrace|semi)\s+(?:in|on|near|outside|just outside)\s+(?:the\s+)?/i, '');
  if (NAME_LIKE.has(request.objectClass)) {
    const words = out.split(/\s+/);
    const k = words.findIndex((w, i) => i > 0 && /ing$/i.test(w) && readVerb(w.toLowerCase()).some((r) => r.form === 'gerund'));
    if (k > 0) out = words.slice(0, k).join(' ');
  }
  return out;
}

/** A diet named by a phrase ("a keto diet", "vegan") or undefined. */
export function dietOf(phrase: string): string | undefined {
  const p = phrase.toLowerCase().replace(/^(?:a|an|the|strict|strictly|mostly|fully|full|100%)\s+/g, '').replace(/\s+(?:diet|lifestyle)$/, '').trim();
  return DIETS.has(p) ? p : undefined;
}

