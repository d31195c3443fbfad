import type { PredicateFamily } from '../types.js';
import { changeSurfaces } from './change-verbs.js';

/**
 * The predicate taxonomy: every canonical predicate the extractors may emit,
 * its family, cardinality, opposite and the surface forms that express it.
 *
 * Surface forms are written in lemma form ("live in", "be allergic to") and
 * carry an aspect:
 *  - state: the verb describes the relation itself ("live in"). Past forms are past facts.
 *  - onset: the verb starts the relation ("move to"). "I moved to X" means the relation holds now.
 *  - end:   the verb ends the relation ("move out of", "sell"). It yields a negated fact.
 * `objectClass` narrows a shared verb ("have a dog" vs "have asthma"); `fixedObject`
 * is the object of intransitive forms ("I smoke" -> habit: smoking).
 */

export type Cardinality = 'single' | 'multi';
export type SurfaceAspect = 'state' | 'onset' | 'end';

/** Object classes the rule extractor can recognise; 'any' accepts every noun phrase. */
export type ObjectClass =
  | 'any'
  | 'place'
  | 'organization'
  | 'person'
  | 'pet'
  | 'ownable'
  | 'condition'
  | 'medication'
  | 'loan'
  | 'appointment'
  | 'event'
  | 'language'
  | 'money'
  | 'job'
  | 'field'
  | 'club'
  | 'school'
  | 'activity'
  | 'diet'
  | 'skill'
  | 'company';

export interface SurfaceForm {
  phrase: string;
  aspect: SurfaceAspect;
  objectClass?: ObjectClass;
  fixedObject?: string;
}

export interface PredicateSpec {
  name: string;
  family: PredicateFamily;
  cardinality: Cardinality;
  opposite?: string;
  /** What the object is; used by the LLM prompt and to mark literals. */
  objectKind: 'place' | 'organization' | 'person' | 'thing' | 'literal';
  description: string;
  surfaces: SurfaceForm[];
}

/** Object value meaning "whatever the current value is", used by negations without an object ("I quit my job"). */
export const ANY_OBJECT = '*';

const state = (phrase: string, objectClass?: ObjectClass): SurfaceForm => ({ phrase, aspect: 'state', objectClass });
const onset = (phrase: string, objectClass?: ObjectClass): SurfaceForm => ({ phrase, aspect: 'onset', objectClass });
const end = (phrase: string, objectClass?: ObjectClass): SurfaceForm => ({ phrase, aspect: 'end', objectClass });
const fixed = (phrase: string, aspect: SurfaceAspect, fixedObject: string): SurfaceForm => ({ phrase, aspect, fixedObject });

type Spec = Omit<PredicateSpec, 'family'>;
const family = (f: PredicateFamily, specs: Spec[]): PredicateSpec[] => specs.map((s) => ({ ...s, family: f }));

const PREFERENCES = family('preferences', [
  {
    name: 'likes', cardinality: 'multi', opposite: 'dislikes', objectKind: 'thing',
    description: 'things, activities or people the subject likes, loves or enjoys',
    surfaces: [state('like'), state('love'), state('enjoy'), state('adore'), state('be a fan of'), state('be a big fan of'),
      state('be a huge fan of'), state('be into'), state('be really into'), state('be crazy about'), state('be obsessed with'),
      state('be passionate about'), state('be fond of'), onset('fall in love with'), onset('get into')],
  },
  {
    name: 'dislikes', cardinality: 'multi', opposite: 'likes', objectKind: 'thing',
    description: 'things the subject dislikes or hates',
    surfaces: [state('dislike'), state('hate'), state('detest'), state('loathe'), state('can not stand'), state('can not bear')],
  },
  { name: 'prefers', cardinality: 'multi', objectKind: 'thing', description: 'what the subject prefers over alternatives', surfaces: [state('prefer')] },
  { name: 'favorite_food', cardinality: 'single', objectKind: 'thing', description: 'favourite food, dish or cuisine', surfaces: [] },
  { name: 'favorite_color', cardinality: 'single', objectKind: 'literal', description: 'favourite colour', surfaces: [] },
  { name: 'favorite_movie', cardinality: 'single', objectKind: 'thing', description: 'favourite film', surfaces: [] },
  { name: 'favorite_book', cardinality: 'single', objectKind: 'thing', description: 'favourite book or novel', surfaces: [] },
  { name: 'favorite_music', cardinality: 'single', objectKind: 'thing', description: 'favourite band, artist, song or genre', surfaces: [] },
  { name: 'favorite_sport', cardinality: 'single', objectKind: 'thing', description: 'favourite sport', surfaces: [] },
  { name: 'hobby', cardinality: 'multi', objectKind: 'thing', description: 'hobbies and pastimes', surfaces: [state('go', 'activity'), state('do', 'activity'), state('practice', 'activity'), state('practise', 'activity'), onset('take up')] },
  {
    name: 'plays', cardinality: 'multi', objectKind: 'thing', description: 'sports, instruments or games the subject plays',
    surfaces: [state('play')],
  },
  { name: 'supports', cardinality: 'single', objectKind: 'organization', description: 'sports team the subject supports', surfaces: [state('support', 'organization'), state('root for')] },
]);

const PEOPLE = family('people', [
  {
    name: 'married_to', cardinality: 'single', opposite: 'divorced_from', objectKind: 'person',
    description: 'spouse (wife, husband)',
    surfaces: [state('be married to', 'person'), onset('marry', 'person'), onset('get married to', 'person'), fixed('get divorced', 'end', ANY_OBJECT), fixed('be divorced', 'end', ANY_OBJECT)],
  },
  {
    name: 'divorced_from', cardinality: 'multi', opposite: 'married_to', objectKind: 'person',
    description: 'former spouse the subject divorced',
    surfaces: [onset('divorce', 'person'), onset('get divorced from', 'person'), state('be divorced from', 'person')],
  },
  {
    name: 'partner', cardinality: 'single', objectKind: 'person',
    description: 'romantic partner (girlfriend, boyfriend, fiance)',
    surfaces: [state('date', 'person'), state('be dating', 'person'), state('be engaged to', 'person'), onset('get engaged to', 'person'), state('be in a relationship with', 'person'),
      onset('start dating', 'person'), end('break up with', 'person'), end('split up with', 'person'), end('split from', 'person'), fixed('be single', 'end', ANY_OBJECT),
      fixed('break up', 'end', ANY_OBJECT), fixed('split up', 'end', ANY_OBJECT), fixed('separate', 'end', ANY_OBJECT)],
  },
  { name: 'has_mother', cardinality: 'single', objectKind: 'person', description: 'mother', surfaces: [] },
  { name: 'has_father', cardinality: 'single', objectKind: 'person', description: 'father', surfaces: [] },
  { name: 'has_sister', cardinality: 'multi', objectKind: 'person', description: 'sister', surfaces: [] },
  { name: 'has_brother', cardinality: 'multi', objectKind: 'person', description: 'brother', surfaces: [] },
  { name: 'has_son', cardinality: 'multi', objectKind: 'person', description: 'son', surfaces: [] },
  { name: 'has_daughter', cardinality: 'multi', objectKind: 'person', description: 'daughter', surfaces: [] },
  { name: 'has_child', cardinality: 'multi', objectKind: 'person', description: 'child of unspecified gender', surfaces: [] },
  { name: 'has_relative', cardinality: 'multi', objectKind: 'person', description: 'other relatives: cousin, aunt, uncle, grandparent, niece, nephew, in-laws', surfaces: [] },
  { name: 'has_friend', cardinality: 'multi', objectKind: 'person', description: 'friend', surfaces: [] },
  { name: 'has_colleague', cardinality: 'multi', objectKind: 'person', description: 'colleague or co-worker', surfaces: [] },
  { name: 'has_manager', cardinality: 'single', objectKind: 'person', description: 'boss or manager', surfaces: [state('report to', 'person'), state('work under', 'person')] },
  { name: 'has_roommate', cardinality: 'multi', objectKind: 'person', description: 'roommate or flatmate', surfaces: [] },
]);

const PLACES = family('places', [
  {
    name: 'lives_in', cardinality: 'single', objectKind: 'place',
    description: 'city, region or country where the subject lives now',
    surfaces: [state('live in', 'place'), state('reside in', 'place'), state('be based in', 'place'), state('stay in', 'place'),
      onset('move to', 'place'), onset('move into', 'place'), onset('move in to', 'place'), onset('relocate to', 'place'), onset('move back to', 'place'), onset('settle in', 'place'),
      onset('emigrate to', 'place'), end('move out of', 'place'), end('move away from', 'place')],
  },
  { name: 'is_from', cardinality: 'single', objectKind: 'place', description: 'where the subject comes from or grew up', surfaces: [state('be from', 'place'), state('come from', 'place'), state('be originally from', 'place'), state('grow up in', 'place'), state('be raised in', 'place')] },
  { name: 'born_in', cardinality: 'single', objectKind: 'place', description: 'place of birth', surfaces: [state('be born in', 'place')] },
  { name: 'visited', cardinality: 'multi', objectKind: 'place', description: 'places the subject has been to (a lasting experience)', surfaces: [state('visit', 'place'), state('have been to', 'place'), state('be to', 'place'), state('travel to', 'place'), state('go to', 'place')] },
  { name: 'wants_to_visit', cardinality: 'multi', objectKind: 'place', description: 'places the subject wants to visit', surfaces: [] },
]);

const WORK = family('work', [
  {
    name: 'works_at', cardinality: 'single', objectKind: 'organization',
    description: 'current employer (company or institution)',
    surfaces: [state('work at', 'organization'), state('work for', 'organization'), state('be employed at', 'organization'), state('be employed by', 'organization'),
      onset('join', 'company'), onset('start at', 'company'), onset('start working at', 'organization'), onset('start working for', 'organization'),
      onset('start a new job at', 'organization'), onset('start a job at', 'organization'), onset('start my new job at', 'organization'), onset('get a job at', 'organization'), onset('get a new job at', 'organization'),
      onset('be hired by', 'organization'), onset('accept a job at', 'organization'), onset('accept an offer from', 'organization'), onset('accept an offer at', 'organization'), onset('accept a position at', 'organization'), onset('found', 'company'),
      end('leave', 'company'), end('quit', 'company'), end('quit', 'organization'), end('hand in my notice at', 'organization'), end('resign from', 'organization'), end('leave my job at', 'organization'), end('quit my job at', 'organization'),
      fixed('quit my job', 'end', ANY_OBJECT), fixed('lose my job', 'end', ANY_OBJECT), fixed('be fired', 'end', ANY_OBJECT), fixed('get fired', 'end', ANY_OBJECT),
      fixed('be laid off', 'end', ANY_OBJECT), fixed('get laid off', 'end', ANY_OBJECT), fixed('be unemployed', 'end', ANY_OBJECT),
      end('be laid off from', 'organization'), end('get laid off from', 'organization'), end('be fired from', 'organization'), end('get fired from', 'organization'), end('be let go from', 'organization'), end('be made redundant at', 'organization'), end('be made redundant from', 'organization')],
  },
  {
    name: 'job_title', cardinality: 'single', objectKind: 'literal', description: 'occupation or job title',
    surfaces: [state('work as', 'job'), state('do shifts as', 'job'), state('do night shifts as', 'job'), state('do nights as', 'job'), state('train as', 'job'), onset('retrain as', 'job'), onset('qualify as', 'job'), onset('start as', 'job'), state('be employed as', 'job'), state('work nights as', 'job'), state('work shifts as', 'job'), state('work night shifts as', 'job'), onset('become', 'job'), onset('get promoted to', 'job'), onset('be promoted to', 'job'), fixed('retire', 'onset', 'retired'), fixed('be retired', 'state', 'retired')],
  },
  { name: 'works_in', cardinality: 'single', objectKind: 'literal', description: 'field, industry or department', surfaces: [state('work in', 'field')] },
  { name: 'studies', cardinality: 'single', objectKind: 'literal', description: 'subject of study', surfaces: [state('study'), state('major in'), state('be majoring in')] },
  { name: 'studies_at', cardinality: 'single', objectKind: 'organization', description: 'school or university attended now', surfaces: [state('go to', 'school'), state('attend', 'school'), state('be enrolled at', 'organization'), state('study at', 'organization')] },
  { name: 'has_skill', cardinality: 'multi', objectKind: 'thing', description: 'skills, tools or programming languages the subject knows', surfaces: [state('know', 'skill'), state('be good at'), state('be skilled in'), state('be skilled at'), state('be proficient in'), state('be an expert in'), state('can code in'), state('code in'), state('program in')] },
]);

const OWNERSHIP = family('ownership', [
  {
    name: 'owns', cardinality: 'multi', objectKind: 'thing', description: 'possessions: vehicles, homes, devices, instruments',
    surfaces: [state('own'), state('have', 'ownable'), onset('buy'), onset('get', 'ownable'), onset('purchase'), onset('inherit'),
      end('sell'), end('give away'), end('get rid of'), end('lose', 'ownable')],
  },
  {
    name: 'has_pet', cardinality: 'multi', objectKind: 'thing', description: 'pets, by kind of animal (dog, cat)',
    surfaces: [state('have', 'pet'), state('own', 'pet'), onset('adopt', 'pet'), onset('get', 'pet'), onset('buy', 'pet'), onset('rescue', 'pet'), end('give away', 'pet'), end('lose', 'pet'), end('rehome', 'pet')],
  },
  { name: 'drives', cardinality: 'single', objectKind: 'thing', description: 'the car the subject drives', surfaces: [state('drive')] },
  { name: 'uses', cardinality: 'multi', objectKind: 'thing', description: 'devices, software or services the subject uses', surfaces: [state('use'), onset('switch to')] },
]);

const HEALTH = family('health', [
  {
    name: 'allergic_to', cardinality: 'multi', objectKind: 'thing', description: 'allergies',
    surfaces: [state('be allergic to'), state('have an allergy to'), state('be severely allergic to'), state('be deathly allergic to')],
  },
  {
    name: 'has_condition', cardinality: 'multi', objectKind: 'thing', description: 'illnesses, chronic conditions, injuries, intolerances',
    surfaces: [state('have', 'condition'), state('suffer from'), state('live with', 'condition'), state('struggle with', 'condition'), state('deal with', 'condition'),
      onset('be diagnosed with'), onset('get diagnosed with'), onset('develop', 'condition'), onset('get', 'condition'), onset('catch', 'condition'),
      end('recover from'), end('get over'), end('beat', 'condition')],
  },
  { name: 'takes_medication', cardinality: 'multi', objectKind: 'thing', description: 'medication or supplements taken regularly', surfaces: [state('take', 'medication'), state('be on', 'medication'), onset('be prescribed'), onset('start taking', 'medication'), onset('switch to', 'medication'), onset('start', 'medication'), onset('start on', 'medication'), onset('up', 'medication'), end('come off', 'medication')] },
  { name: 'diet', cardinality: 'single', objectKind: 'literal', description: 'diet: vegetarian, vegan, keto, pescatarian, halal, kosher', surfaces: [state('follow', 'diet'), state('be on', 'diet'), onset('go', 'diet'), onset('become', 'diet'), onset('switch to', 'diet')] },
  { name: 'eats', cardinality: 'multi', objectKind: 'thing', description: 'foods the subject eats (negated: avoids)', surfaces: [state('eat'), end('give up'), end('cut out')] },
  { name: 'drinks', cardinality: 'multi', objectKind: 'thing', description: 'drinks the subject consumes (negated: avoids)', surfaces: [state('drink'), fixed('drink', 'state', 'alcohol')] },
  { name: 'habit', cardinality: 'multi', objectKind: 'thing', description: 'habits such as smoking or vaping', surfaces: [fixed('smoke', 'state', 'smoking'), fixed('vape', 'state', 'vaping'), fixed('be a smoker', 'state', 'smoking'), fixed('be a heavy smoker', 'state', 'smoking')] },
  { name: 'height', cardinality: 'single', objectKind: 'literal', description: 'body height', surfaces: [] },
  { name: 'weight', cardinality: 'single', objectKind: 'literal', description: 'body weight', surfaces: [state('weigh')] },
]);

const FINANCIAL = family('financial', [
  { name: 'salary', cardinality: 'single', objectKind: 'literal', description: 'salary or income', surfaces: [state('earn', 'money'), state('make', 'money'), state('be on', 'money'), onset('get a pay rise to', 'money'), onset('get a raise of', 'money'), state('get paid', 'money'), state('be paid', 'money'), onset('get a raise to', 'money')] },
  { name: 'banks_with', cardinality: 'multi', objectKind: 'organization', description: 'bank the subject uses', surfaces: [state('bank with'), state('have an account at'), state('have an account with')] },
  { name: 'has_loan', cardinality: 'multi', objectKind: 'thing', description: 'loans and debts (mortgage, student loan)', surfaces: [state('have', 'loan'), onset('take out', 'loan'), state('be paying off', 'loan'), end('pay off', 'loan')] },
  { name: 'invests_in', cardinality: 'multi', objectKind: 'thing', description: 'investments', surfaces: [state('invest in'), state('hold', 'ownable')] },
  { name: 'saving_for', cardinality: 'multi', objectKind: 'thing', description: 'what the subject is saving money for', surfaces: [state('save for'), state('save up for'), state('save money for')] },
  { name: 'pays_rent', cardinality: 'single', objectKind: 'literal', description: 'rent paid', surfaces: [] },
  { name: 'subscribes_to', cardinality: 'multi', objectKind: 'thing', description: 'paid subscriptions and memberships of services', surfaces: [state('subscribe to'), state('be subscribed to'), state('pay for'), onset('sign up for'), end('cancel'), end('unsubscribe from')] },
  { name: 'budget', cardinality: 'single', objectKind: 'literal', description: 'spending budget', surfaces: [] },
]);

const EVENTS = family('events', [
  { name: 'birthday', cardinality: 'single', objectKind: 'literal', description: 'birthday as "Month D"', surfaces: [] },
  { name: 'anniversary', cardinality: 'single', objectKind: 'literal', description: 'wedding or relationship anniversary as "Month D"', surfaces: [] },
  { name: 'has_appointment', cardinality: 'multi', objectKind: 'thing', description: 'appointments, meetings, interviews, exams', surfaces: [state('have', 'appointment'), state('have got', 'appointment')] },
  { name: 'attending', cardinality: 'multi', objectKind: 'thing', description: 'events the subject attends: weddings, concerts, conferences', surfaces: [state('attend', 'event'), state('go to', 'event'), state('attend')] },
  { name: 'trip_to', cardinality: 'multi', objectKind: 'place', description: 'planned or ongoing trips', surfaces: [state('fly to', 'place'), state('travel to', 'place'), state('go to', 'place'), state('visit', 'place'), state('head to', 'place'), state('drive to', 'place')] },
  { name: 'graduated_from', cardinality: 'multi', objectKind: 'organization', description: 'school or university the subject graduated from', surfaces: [onset('graduate from'), onset('finish school at')] },
]);

const OTHER = family('other', [
  { name: 'name', cardinality: 'single', objectKind: 'literal', description: "the subject's name", surfaces: [state('be called'), state('be named'), state('go by')] },
  { name: 'age', cardinality: 'single', objectKind: 'literal', description: 'age in years', surfaces: [onset('turn')] },
  { name: 'birth_year', cardinality: 'single', objectKind: 'literal', description: 'year of birth', surfaces: [] },
  { name: 'speaks', cardinality: 'multi', objectKind: 'thing', description: 'languages spoken', surfaces: [state('speak'), state('can speak'), state('be fluent in'), state('be conversational in')] },
  { name: 'nationality', cardinality: 'single', objectKind: 'literal', description: 'nationality or citizenship', surfaces: [] },
  { name: 'learning', cardinality: 'multi', objectKind: 'thing', description: 'what the subject is currently learning', surfaces: [state('learn'), onset('start learning'), state('take lessons in'), end('stop learning')] },
  { name: 'wants_to', cardinality: 'multi', objectKind: 'thing', description: 'goals and wishes ("learn the piano")', surfaces: [] },
  { name: 'member_of', cardinality: 'multi', objectKind: 'organization', description: 'clubs, teams and associations', surfaces: [state('be a member of'), state('be part of'), state('belong to'), onset('join', 'club'), end('quit', 'club'), end('leave', 'club')] },
]);

/** Each predicate with the shared verbs of change its state surfaces imply (change-verbs.ts). */
export const PREDICATES: readonly PredicateSpec[] = [...PREFERENCES, ...PEOPLE, ...PLACES, ...WORK, ...OWNERSHIP, ...HEALTH, ...FINANCIAL, ...EVENTS, ...OTHER].map(
  (p) => ({ ...p, surfaces: [...p.surfaces, ...changeSurfaces(p.surfaces)] }),
);

const BY_NAME = new Map(PREDICATES.map((p) => [p.name, p]));

/** `favorite_<category>` predicates outside the fixed list still belong to preferences and are single-valued. */
const FAVORITE_PREFIX = 'favorite_';

export function lookupPredicate(canonical: string): PredicateSpec | undefined {
  return BY_NAME.get(canonical);
}

export function isKnownPredicate(canonical: string): boolean {
  return BY_NAME.has(canonical) || canonical.startsWith(FAVORITE_PREFIX);
}

export function familyOf(predicate: string): PredicateFamily {
  const spec = BY_NAME.get(predicate);
  if (spec) return spec.family;
  return predicate.startsWith(FAVORITE_PREFIX) ? 'preferences' : 'other';
}

/** Unknown predicates are multi-valued: without knowing the relation, never invalidate on a different object. */
export function isSingleValued(predicate: string): boolean {
  const spec = BY_NAME.get(predicate);
  if (spec) return spec.cardinality === 'single';
  return predicate.startsWith(FAVORITE_PREFIX);
}

export function oppositeOf(predicate: string): string | undefined {
  return BY_NAME.get(predicate)?.opposite;
}

/** Ending the first relation ends these too, for the same object: selling a car ends driving it. */
const ENDS_ALONG: Record<string, string[]> = { owns: ['drives'] };

export function endsAlong(predicate: string): string[] {
  return ENDS_ALONG[predicate] ?? [];
}

/** Stating the first relation ends a plan or wish of the second for the same object: a trip that was made is over, a wish to go is fulfilled. */
const COMPLETES: Record<string, string[]> = { visited: ['trip_to', 'wants_to_visit'] };

export function completes(predicate: string): string[] {
  return COMPLETES[predicate] ?? [];
}

/** The predicate itself, its opposite and what ends along with it: what stage 1 must fetch for the judge. */
export function candidatePredicates(predicate: string): string[] {
  const opposite = oppositeOf(predicate);
  return [predicate, ...(opposite ? [opposite] : []), ...endsAlong(predicate), ...completes(predicate)];
}

export function predicateNames(): string[] {
  return PREDICATES.map((p) => p.name);
}

// ------------------------------------------------------------ surface lookup

/** Lemmas of inflected first words, enough to canonicalise surfaces written in any tense. */
const IRREGULAR_LEMMAS: Record<string, string> = {
  is: 'be', am: 'be', are: 'be', was: 'be', were: 'be', been: 'be', being: 'be', "i'm": 'be', "'m": 'be',
  has: 'have', had: 'have', having: 'have',
  got: 'get', gotten: 'get', getting: 'get',
  bought: 'buy', brought: 'bring', sold: 'sell', went: 'go', gone: 'go', goes: 'go', grew: 'grow', grown: 'grow',
  left: 'leave', became: 'become', began: 'begin', begun: 'begin', drove: 'drive', driven: 'drive',
  flew: 'fly', flown: 'fly', flies: 'fly', lost: 'lose', knew: 'know', known: 'know', gave: 'give', given: 'give',
  came: 'come', ate: 'eat', eaten: 'eat', drank: 'drink', drunk: 'drink', spoke: 'speak', spoken: 'speak',
  made: 'make', took: 'take', taken: 'take', held: 'hold', paid: 'pay', quit: 'quit', quitting: 'quit',
  fell: 'fall', caught: 'catch', stood: 'stand', beat: 'beat', beaten: 'beat', studies: 'study', studied: 'study',
  married: 'marry', marries: 'marry', relocated: 'relocate', dating: 'date', dated: 'date', joined: 'join',
  founded: 'found', retired: 'retire', retiring: 'retire', moved: 'move', moving: 'move', lives: 'live', lived: 'live', living: 'live',
};

function lemmatizeWord(word: string): string {
  const w = word.toLowerCase();
  if (IRREGULAR_LEMMAS[w]) return IRREGULAR_LEMMAS[w];
  const known = (stem: string) => SURFACE_WORDS.has(stem);
  const fromSuffix = (stem: string): string => {
    if (/(.)\1$/.test(stem) && !/(ll|ss)$/.test(stem) && known(stem.slice(0, -1))) return stem.slice(0, -1);
    if (known(stem)) return stem;
    if (known(`${stem}e`)) return `${stem}e`;
    return stem;
  };
  if (/(ies|ied)$/.test(w) && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith('ing') && w.length > 4) return fromSuffix(w.slice(0, -3));
  if (w.endsWith('ed') && w.length > 3) return fromSuffix(w.slice(0, -2));
  if (w.endsWith('es') && known(w.slice(0, -2))) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && known(w.slice(0, -1))) return w.slice(0, -1);
  return w;
}

function normalizeSurface(surface: string): string {
  return surface
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/\bcan't\b|\bcannot\b/g, 'can not')
    .replace(/\b(\w+)n't\b/g, '$1 not')
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

const SURFACE_WORDS = new Set(PREDICATES.flatMap((p) => p.surfaces.flatMap((s) => s.phrase.split(' '))));

export interface SurfaceEntry {
  predicate: string;
  surface: SurfaceForm;
}

/** Every predicate listing a phrase, in taxonomy order: "have" means owns, has_pet, has_condition... by object class. */
export const SURFACE_INDEX: ReadonlyMap<string, readonly SurfaceEntry[]> = (() => {
  const index = new Map<string, SurfaceEntry[]>();
  for (const predicate of PREDICATES) {
    for (const surface of predicate.surfaces) {
      const entries = index.get(surface.phrase) ?? [];
      entries.push({ predicate: predicate.name, surface });
      index.set(surface.phrase, entries);
    }
  }
  return index;
})();

/**
 * Resolves a verb phrase as written ("moved to", "is based in", "has sold") to
 * its first taxonomy entry, or undefined when the phrase is not in the taxonomy.
 * Leading words that do not resolve (subjects, auxiliaries) are skipped.
 */
export function resolveSurface(surface: string): SurfaceEntry | undefined {
  const words = normalizeSurface(surface).split(' ').filter(Boolean);
  for (let start = 0; start < words.length; start++) {
    const lemmas = words.slice(start).map(lemmatizeWord);
    const hit = SURFACE_INDEX.get(lemmas.join(' ')) ?? SURFACE_INDEX.get([lemmas[0], ...words.slice(start + 1)].join(' '));
    if (hit) return hit[0];
  }
  return undefined;
}

/** Canonical predicate for a surface verb phrase ("relocated to" -> "lives_in"), or null when unknown. */
export function canonicalizeVerb(surface: string): string | null {
  return resolveSurface(surface)?.predicate ?? null;
}

/** snake_case form of an arbitrary verb phrase, for predicates outside the taxonomy (family 'other'). */
export function toPredicateName(phrase: string): string {
  return (
    normalizeSurface(phrase)
      .replace(/'/g, '')
      .split(' ')
      .filter(Boolean)
      .join('_') || 'related_to'
  );
}
