import nlp from 'compromise';
import type { SubjectType, Tense } from '../../types.js';
import { ANY_OBJECT, SURFACE_INDEX, isSingleValued, type ObjectClass, type SurfaceAspect, type SurfaceEntry } from '../taxonomy.js';
import { activityHabit } from './activities.js';
import { attributeFacts } from './attributes.js';
import { wishedPlaces } from './wishes.js';
import { datedAttributes } from './attribute-dates.js';
import { copulaFacts } from './copula.js';
import { unmappedRelation } from './fallback.js';
import { findDates, removeMentions, type DateMention } from './dates.js';
import type { FactDraft } from './draft.js';
import { RELATIONS, isLanguage, isMedicationPhrase, parseSmallNumber } from './lexicon.js';
import { dietOf, extractObjects } from './objects.js';
import { eventFacts } from './events.js';
import { residenceIn } from './residence.js';
import { measureFacts } from './measures.js';
import { nominalEventFacts } from './event-mentions.js';
import { moneyFlowFacts } from './money-flows.js';
import { matchSpecialPatterns, relativesNamed } from './special.js';
import { USER, parseSubject, type SubjectRef } from './subjects.js';
import { parseVerbPhrase, tokenize, type Token, type VerbPhrase, type VerbTime } from './verb-phrase.js';
import { readVerb } from './inflection.js';
import { isLikeButNotTaste } from './like-not-verb.js';
import { BE_WORDS, carriesOver, implicitSubject, startsFragment, standsForBe, withBe } from './implicit-subject.js';

/**
 * One clause in, fact drafts out. The order of attempts: whole-clause patterns
 * (special.ts), then subject + verb phrase + taxonomy surface + object, then
 * "to be" complements (copula.ts).
 */

export interface ClauseContext {
  referenceTime: Date;
  /** Subjects of the previous clause, for "... and work at X". */
  inherited?: SubjectRef[];
  lastPerson?: SubjectRef;
  /** First clause of a sentence: allows a dropped "I" ("Moved to Munich last year"). */
  sentenceInitial: boolean;
  /** Subjects of the previous clause of the same sentence, for a clause that leaves its subject out. */
  previousSubjects?: SubjectRef[];
  /** The last date the previous clause stated (its end, else its start), for a bare "since" ("and I've been in Amsterdam since"). */
  previousDate?: Date;
  typeOfName: (name: string, clause: string) => SubjectType;
}

export interface ClauseAnalysis {
  drafts: FactDraft[];
  subjects?: SubjectRef[];
  lastPerson?: SubjectRef;
  /** The verb words the facts came from ("lived in"), for a following clause that leaves them out ("then London until 2020"). */
  verbHead?: string;
}

const FILLER_PHRASES = [
  'and', 'but', 'so', 'also', 'oh', 'well', 'actually', 'anyway', 'anyways', 'btw', 'by the way', 'fyi', 'ps', 'just so you know', 'just fyi',
  'for the record', 'fun fact', 'update', 'quick update', 'news', 'ok', 'okay', 'yeah', 'yes', 'yep', 'yup', 'no', 'nope', 'hey', 'hi', 'hello',
  'haha', 'lol', 'alright', 'right', 'honestly', 'basically', 'plus', 'however', 'remember', 'remember that', 'please remember', 'please remember that',
  'please note', 'please note that', 'note', 'note that', 'note to self', 'i should mention', 'thanks', 'thank you', 'thank you so much', 'thanks a lot', 'i should mention that', 'i forgot to mention',
  'i forgot to mention that', 'i wanted to say', 'i wanted to mention', 'i wanted to tell you', 'i wanted to let you know', 'i wanted to let you know that',
  'let me tell you', 'let me tell you that', 'as you know', 'to be honest', 'tbh', 'fwiw', 'in fact', 'guess what', 'good news', 'bad news', 'sadly',
  'unfortunately', 'fortunately', 'luckily', 'surprisingly', 'funny enough', 'for context', 'for reference', 'context', 'about me', 'just to let you know',
  'keep in mind', 'keep in mind that', 'long story short', 'so basically', 'right so', 'big news', 'small update', 'life update', 'random but', 'random fact', 'fun fact:', 'please keep in mind that', 'just a heads up', 'heads up', 'um', 'uh', 'hmm', 'so yeah', 'oh and', 'also',
].sort((a, b) => b.length - a.length);
const FILLERS = new RegExp(`^(?:${FILLER_PHRASES.map((p) => p.replace(/ /g, '\\s+')).join('|')})\\b[\\s,:!.-]*`, 'i');
const HEDGE_WEAK = /^(?:i think|i believe|i'm pretty sure|i am pretty sure|pretty sure|i'm fairly sure|i am fairly sure|if i remember correctly|iirc|i reckon|i feel like)\b(?:\s+that)?[\s,]*/i;
const HEDGE_STRONG = /^(?:i guess|i suppose|maybe|probably|perhaps|possibly|apparently|i'm not sure but|i am not sure but|not sure but|i might be wrong but|i assume)\b(?:\s+that)?[\s,]*/i;
const NON_FACTUAL = /^(?:if|when|whenever|unless|whether|once|as soon as|in case|i wish|i wonder|i hope|imagine|suppose|what if|hopefully|let's|let us|you|your|do you|can you|could you|would you|will you|are you|is there)\b/i;
const TEMPORAL_ADVERBS = /\b(?:right now|at the moment|at present|currently|nowadays|these days|lately|recently|today|for now|as of now|still|again|now|at this point|these past few (?:weeks|months|years))\b/gi;
const NO_LONGER = /\b(?:any ?more|no longer)\b/i;

const STUDY_CONTEXT = /\b(?:masters?|mba|mph|msc|phd|degree|course|programme|program|university|college|uni|school|undergrad|grad school|scholarship|admitted)\b/i;
/** A place compromise knows as a city, region or country (not an organisation). */
function isCityOrCountry(name: string): boolean {
  const doc = nlp(name);
  return doc.has('#Place') && !doc.has('#Organization');
}
const DRINK = /\b(?:milk|coffee|tea|alcohol|booze|beer|wine|spirits|soda|coke|pepsi|juice|energy drinks?|caffeine|decaf|lager|cider|whisk(?:e)?y|vodka|gin|prosecco|champagne|espresso|latte|cappuccino|kombucha)$/i;

/** Predicates whose past-tense statement is still true now ("I visited Japan", "I was born in Rome"). */
const PERMANENT = new Set(['born_in', 'visited', 'graduated_from', 'birth_year', 'birthday', 'is_from', 'divorced_from']);
/** Tastes and habits: "used to" means they ended. */
const HABITS = new Set(['likes', 'dislikes', 'hobby', 'plays', 'eats', 'drinks', 'habit', 'uses', 'prefers', 'takes_medication']);
/** Predicates about upcoming things: present tense means planned. */
const FUTURE_ORIENTED = new Set(['has_appointment', 'attending', 'trip_to']);
/** Verbs that may start a sentence without "I" in chat ("Love sushi!"). */
const IMPLICIT_I_LEMMAS = new Set(['love', 'like', 'hate', 'enjoy', 'adore', 'prefer']);

const CLASS_SPECIFICITY: ObjectClass[] = ['pet', 'condition', 'medication', 'loan', 'appointment', 'event', 'school', 'diet', 'activity', 'skill', 'language', 'money', 'job', 'club', 'field', 'ownable', 'person', 'company', 'organization', 'place', 'any'];

const SURFACES_BY_FIRST_WORD: Map<string, { words: string[]; entry: SurfaceEntry }[]> = (() => {
  const map = new Map<string, { words: string[]; entry: SurfaceEntry }[]>();
  for (const [phrase, entries] of SURFACE_INDEX) {
    const words = phrase.split(' ');
    const list = map.get(words[0]) ?? [];
    for (const entry of entries) list.push({ words, entry });
    map.set(words[0], list);
  }
  for (const list of map.values()) {
    list.sort(
      (a, b) =>
        b.words.length - a.words.length ||
        CLASS_SPECIFICITY.indexOf(a.entry.surface.objectClass ?? 'any') - CLASS_SPECIFICITY.indexOf(b.entry.surface.objectClass ?? 'any'),
    );
  }
  return map;
})();

export function hasSurfaceStartingWith(words: string[]): boolean {
  const [first, ...rest] = words;
  const lemmas = first === 'be' ? ['be'] : [first, ...readVerb(first).map((r) => r.lemma)];
  for (const lemma of lemmas) {
    for (const { words: w } of SURFACES_BY_FIRST_WORD.get(lemma) ?? []) {
      if (rest.every((word, i) => w[i + 1] === word || (w[i + 1] !== undefined && readVerb(word).some((r) => r.lemma === w[i + 1])))) return true;
    }
  }
  return false;
}

/** True when `text` starts like a verb phrase: an auxiliary or a verb form. */
export function startsWithVerbPhrase(text: string): boolean {
  const tokens = tokenize(text.slice(0, 40));
  if (tokens.length === 0) return false;
  const first = tokens[0].lower;
  if (/^(?:am|is|are|was|were|have|has|had|do|does|did|will|would|can|could|should|might|may|must|used|never|just|really|also|still|currently|recently|always|not|no|finally|actually|already)$/.test(first)) return true;
  return readVerb(first).some((r) => r.form !== 'gerund');
}

/** A verbless fragment after a comma that continues the previous subject ("..., on lamotrigine"). */
export function startsClauseFragment(text: string): boolean {
  return startsFragment(text, (phrase) => isMedicationPhrase(phrase) || dietOf(phrase) !== undefined);
}

/** A conjunct like "work at Siemens" that continues the previous subject. */
export function startsWithTaxonomyVerb(text: string): boolean {
  const tokens = tokenize(text.slice(0, 40));
  if (tokens.length === 0) return false;
  const first = tokens[0].lower;
  if (/^(?:am|is|are|was|were|have|has|had|do|does|did|will|would|can|could|used|never|also|just|really|recently|currently|not|no)$/.test(first)) return true;
  // "born in Lagos, raised in Peckham": a participle standing for "be raised in".
  if (BE_WORDS.has(first) && tokens.length > 1) return true;
  return readVerb(first).some((r) => r.form !== 'gerund' && SURFACES_BY_FIRST_WORD.has(r.lemma));
}

interface SurfaceMatch {
  entry: SurfaceEntry;
  /** Tokens consumed after the main verb. */
  consumed: number;
  objectText: string;
  /** "switched from A to B": the replaced value's words. */
  fromText?: string;
}

const SKIPPABLE_BEFORE_PARTICLE = /^(?:back|over|away|out|here|there|permanently|finally|all|the|way|recently|just|abroad|home|remotely|freelance|part-time|full-time|nights|days|shifts)$/;

function matchSurfaces(vp: VerbPhrase, tokens: Token[]): SurfaceMatch[] {
  const following = tokens.slice(vp.mainIndex + 1);
  const lemmas = new Set(vp.readings.map((r) => r.lemma));
  const matches: SurfaceMatch[] = [];
  for (const lemma of lemmas) {
    if (lemma.includes(' ')) {
      // Multi-word readings from the verb-phrase parser, e.g. "can not stand".
      for (const entry of SURFACE_INDEX.get(lemma) ?? []) matches.push({ entry, consumed: 0, objectText: following.map((t) => t.raw).join(' ') });
      continue;
    }
    for (const { words, entry } of SURFACES_BY_FIRST_WORD.get(lemma) ?? []) {
      let f = 0;
      let ok = true;
      let fromText: string | undefined;
      for (let w = 1; w < words.length; w++) {
        const want = words[w];
        const matchesWord = (tok: Token | undefined) => !!tok && (tok.lower === want || (w === 1 && readVerb(tok.lower).some((r) => r.lemma === want && r.form !== 'base' && r.form !== 'third' && words.length > 2)));
        if (matchesWord(following[f])) {
          f++;
          continue;
        }
        // "moved back to", "moved from Berlin to Munich": skip a few words before a final particle.
        if (w === words.length - 1 && ['to', 'in', 'into', 'for', 'at'].includes(want) && following[f] && (SKIPPABLE_BEFORE_PARTICLE.test(following[f].lower) || following[f].lower === 'from')) {
          let k = f;
          while (k < following.length && k - f < 5 && following[k].lower !== want) k++;
          if (following[k]?.lower === want) {
            if (following[f].lower === 'from') fromText = following.slice(f + 1, k).map((t) => t.raw).join(' ');
            f = k + 1;
            continue;
          }
        }
        ok = false;
        break;
      }
      if (!ok) continue;
      matches.push({ entry, consumed: f, objectText: following.slice(f).map((t) => t.raw).join(' '), fromText });
    }
  }
  return matches;
}

function baseTense(time: VerbTime, aspect: SurfaceAspect): Tense {
  switch (time) {
    case 'planned':
      return 'planned';
    case 'used_to':
    case 'past_perfect':
      return 'past';
    case 'past':
      return aspect === 'state' ? 'past' : 'current';
    case 'progressive':
      return aspect === 'state' ? 'current' : 'planned';
    default:
      return 'current';
  }
}

interface Timing {
  tense: Tense;
  validFrom: Date | null;
  validTo: Date | null;
}

function resolveTiming(predicate: string, tenseFromVerb: Tense, mentions: DateMention[], referenceTime: Date, neverClause: boolean): Timing {
  let tense = tenseFromVerb;
  if (PERMANENT.has(predicate) && tense === 'past') tense = 'current';
  if (neverClause && tense === 'past') tense = 'current';
  const start = mentions.find((m) => m.role === 'start');
  const point = mentions.find((m) => m.role === 'point');
  const end = mentions.find((m) => m.role === 'end');
  const duration = mentions.find((m) => m.role === 'duration');
  let validFrom = start?.date ?? point?.date ?? (duration && tense !== 'past' ? duration.date : null);
  let validTo = start?.until ?? end?.date ?? null;
  if (FUTURE_ORIENTED.has(predicate) && tense === 'current' && (!validFrom || validFrom.getTime() >= referenceTime.getTime() - 86_400_000)) tense = 'planned';
  if (tense === 'current' && validFrom && validFrom.getTime() > referenceTime.getTime() + 86_400_000) tense = 'planned';
  if (tense === 'current' && validTo && validTo.getTime() < referenceTime.getTime()) tense = 'past';
  // "I lived in Rome in 2015": it held at least through the period named.
  if (tense === 'past' && !validTo && !start && point?.periodEnd && point.periodEnd.getTime() <= referenceTime.getTime()) validTo = point.periodEnd;
  if (tense !== 'past') validTo = null;
  if (tense === 'past' && !start && !point) validFrom = null;
  // "I worked at IBM until 2020": the start is unknown, so the fact is dated at its end rather than after it.
  if (tense === 'past' && !validFrom && validTo && validTo.getTime() < referenceTime.getTime()) validFrom = validTo;
  return { tense, validFrom: validFrom ?? null, validTo: validTo ?? null };
}

/** Timing of a plain state statement: past for "was", else current. */
function baseTiming(time: VerbTime): Timing {
  return { tense: time === 'past' || time === 'used_to' || time === 'past_perfect' ? 'past' : 'current', validFrom: null, validTo: null };
}

function notAfter(date: Date, referenceTime: Date): Date {
  const ahead = date.getTime() - referenceTime.getTime();
  if (ahead <= 86_400_000) return date;
  if (ahead <= 7 * 86_400_000) return new Date(date.getTime() - 7 * 86_400_000);
  if (ahead <= 366 * 86_400_000) return new Date(Date.UTC(date.getUTCFullYear() - 1, date.getUTCMonth(), date.getUTCDate()));
  return date;
}

function stripFillers(text: string): string {
  let s = text.trim();
  for (let guard = 0; guard < 5; guard++) {
    const next = s.replace(FILLERS, '');
    if (next === s) break;
    s = next;
  }
  return s;
}

function emptyAnalysis(ctx: ClauseContext): ClauseAnalysis {
  return { drafts: [], lastPerson: ctx.lastPerson };
}

/** Objects for a surface match; literal predicates get their own shapes. */
function objectsFor(match: SurfaceMatch, multi: boolean): string[] {
  const { surface, predicate } = match.entry;
  if (surface.fixedObject) return [surface.fixedObject];
  if (predicate === 'age') {
    const n = parseSmallNumber(match.objectText.replace(/\s*(?:years?(?: old)?|yrs?)\b.*$/i, '').trim().split(/\s+/)[0] ?? '');
    return n !== undefined && n > 0 && n < 120 ? [String(n)] : [];
  }
  if (predicate === 'weight') {
    const w = /^(?:about |around )?(\d+(?:[.,]\d+)?\s*(?:kg|kilos?|kilograms?|lbs?|pounds?|stone))\b/i.exec(match.objectText);
    return w ? [w[1]] : [];
  }
  if (predicate === 'diet') {
    const phrase = extractObjects(match.objectText, { objectClass: 'any', predicate, multi: false })[0] ?? '';
    const diet = dietOf(phrase);
    return diet ? [diet] : [];
  }
  return extractObjects(match.objectText, { objectClass: surface.objectClass ?? 'any', predicate, multi });
}

interface PredicateHit {
  predicate: string;
  objects: string[];
  aspect: SurfaceAspect;
  raw: string;
  /** Extra facts found in the object tail, e.g. the employer in "work as a nurse at X". */
  extras: { predicate: string; object: string; negated?: boolean; replaced?: boolean }[];
  /** The clause's negation does not apply ("I don't like my job at X" still works at X). */
  keepsPolarity?: boolean;
}

const JOB_AT = /^(?:my\s+)?(?:new\s+|current\s+)?(?:job|work|position|role|internship)\s+(?:at|with|for)\s+(.+)$/i;

function firstHit(vp: VerbPhrase, tokens: Token[]): PredicateHit | undefined {
  for (const match of matchSurfaces(vp, tokens)) {
    const { predicate, surface } = match.entry;
    // "I love my job at Adidas": the employer is the durable fact, whatever the feeling.
    const jobAt = (predicate === 'likes' || predicate === 'dislikes') && JOB_AT.exec(match.objectText);
    if (jobAt) {
      const employer = extractObjects(jobAt[1], { objectClass: 'organization', predicate: 'works_at', multi: false });
      if (employer.length > 0) return { predicate: 'works_at', objects: employer, aspect: 'state', raw: tokens.slice(0, vp.mainIndex + 1).map((t) => t.raw).join(' '), extras: [], keepsPolarity: true };
    }
    const objects = objectsFor(match, !isSingleValued(predicate));
    if (objects.length === 0) continue;
    const raw = tokens.slice(0, vp.mainIndex + 1 + match.consumed).map((t) => t.raw).join(' ');
    const extras: PredicateHit['extras'] = [];
    // "switched from sertraline to citalopram": the old value ends (single-valued predicates end it anyway).
    if (match.fromText && !isSingleValued(predicate) && surface.aspect === 'onset') {
      for (const old of extractObjects(match.fromText, { objectClass: surface.objectClass ?? 'any', predicate, multi: false })) extras.push({ predicate, object: old, negated: true });
    }
    // "moving from Gdansk to Poznan in September": the old value holds until then; "moved from Denver to Austin": it has ended.
    if (match.fromText && isSingleValued(predicate) && surface.aspect === 'onset') {
      for (const old of extractObjects(match.fromText, { objectClass: surface.objectClass ?? 'any', predicate, multi: false })) extras.push({ predicate, object: old, replaced: true });
    }
    if (predicate === 'job_title' && surface.fixedObject === 'retired') extras.push({ predicate: 'works_at', object: ANY_OBJECT, negated: true });
    if (predicate === 'job_title' && / as$/.test(surface.phrase)) {
      const tail = /\s(?:at|for|with)\s+(.+)$/i.exec(match.objectText);
      const employer = tail && extractObjects(tail[1], { objectClass: 'organization', predicate: 'works_at', multi: false })[0];
      if (employer) extras.push({ predicate: 'works_at', object: employer });
    }
    // "works at Siemens as a technician": the role is stated too.
    if (predicate === 'works_at' && !surface.fixedObject) {
      const role = /\s+as\s+(?:an?\s+|the\s+)?(.+)$/i.exec(match.objectText);
      const title = role && extractObjects(role[1], { objectClass: 'job', predicate: 'job_title', multi: false })[0];
      if (title) extras.push({ predicate: 'job_title', object: title });
    }
    if (predicate === 'studies') {
      const tail = /\s(?:at)\s+(.+)$/i.exec(match.objectText);
      const school = tail && extractObjects(tail[1], { objectClass: 'organization', predicate: 'studies_at', multi: false })[0];
      if (school) extras.push({ predicate: 'studies_at', object: school });
      const subject = extractObjects(match.objectText.replace(/\s+at\s+.+$/i, ''), { objectClass: 'any', predicate, multi: false });
      if (subject.length === 0) continue;
      return { predicate, objects: subject, aspect: surface.aspect, raw, extras };
    }
    return { predicate, objects, aspect: surface.aspect, raw, extras };
  }
  return undefined;
}

function wantsDrafts(vp: VerbPhrase, tokens: Token[]): { predicate: string; objects: string[]; raw: string } | undefined {
  const lemma = vp.readings[0]?.lemma;
  const rest = tokens.slice(vp.mainIndex + 1).map((t) => t.raw).join(' ');
  if (lemma && ['visit', 'see', 'go', 'get', 'travel', 'explore', 'fly'].includes(lemma)) {
    // "go to Japan and New Zealand one day": each named place is a wish of its own.
    // Commas alone may qualify a place ("Paris, France"); a list has its "and".
    const named = /\sand\s/.test(rest) ? wishedPlaces(`visit ${rest.replace(/^to\s+/i, '')}`)?.places : undefined;
    if (named && named.length > 1) return { predicate: 'wants_to_visit', objects: named, raw: tokens.slice(0, vp.mainIndex + 1).map((t) => t.raw).join(' ') };
    const places = extractObjects(rest.replace(/^to\s+/i, ''), { objectClass: 'place', predicate: 'visited', multi: true });
    if (places.length > 0) return { predicate: 'wants_to_visit', objects: places, raw: tokens.slice(0, vp.mainIndex + 1).map((t) => t.raw).join(' ') };
  }
  const phrase = tokens.slice(vp.mainIndex).map((t) => t.raw).join(' ');
  const objects = extractObjects(phrase, { objectClass: 'any', predicate: 'wants_to', multi: false });
  if (objects.length === 0 || objects[0].split(' ').length < 2) return undefined;
  return { predicate: 'wants_to', objects, raw: tokens.slice(0, vp.mainIndex).map((t) => t.raw).join(' ') };
}

export function analyzeClause(input: string, context: ClauseContext): ClauseAnalysis {
  // "Portuguese is my first language, been in Dublin 3 years": a capitalised word that is no first name does not carry over.
  const ctx = context.inherited?.every((s) => s.subjectType !== 'person' || carriesOver(s)) === false ? { ...context, inherited: undefined, previousSubjects: undefined } : context;
  let text = stripFillers(input);
  let hedge = 1;
  for (let guard = 0; guard < 3; guard++) {
    if (HEDGE_WEAK.test(text)) { text = text.replace(HEDGE_WEAK, ''); hedge = Math.min(hedge, 0.75); continue; }
    if (HEDGE_STRONG.test(text)) { text = text.replace(HEDGE_STRONG, ''); hedge = Math.min(hedge, 0.55); continue; }
    break;
  }
  text = stripFillers(text);
  if (!text || NON_FACTUAL.test(text) || /\?\s*$/.test(text)) return emptyAnalysis(ctx);
  if (isLikeButNotTaste(text)) return emptyAnalysis(ctx);

  const attributes = datedAttributes(text, attributeFacts(text), ctx.referenceTime) ?? nominalEventFacts(text, ctx.referenceTime) ?? moneyFlowFacts(text);
  if (attributes) return { drafts: attributes.map((d) => ({ ...d, confidence: d.confidence * hedge })), lastPerson: ctx.lastPerson };
  const special = matchSpecialPatterns(text, ctx.referenceTime) ?? eventFacts(text, ctx.referenceTime) ?? measureFacts(text);
  if (special) {
    return { drafts: special.map((d) => ({ ...d, confidence: d.confidence * hedge })), lastPerson: ctx.lastPerson };
  }

  let mentions = findDates(text, ctx.referenceTime, false);
  let body = removeMentions(text, mentions);
  // "... until 2020, and I've been in Amsterdam since": a bare "since" starts where the previous clause's date was.
  const bareSince = /\bsince(?:\s+then)?\s*$/i.exec(body);
  if (bareSince && ctx.previousDate && !mentions.some((m) => m.role === 'start')) {
    mentions = [...mentions, { start: text.length, end: text.length, text: bareSince[0], role: 'start', date: ctx.previousDate }];
    body = body.slice(0, bareSince.index).trim();
  }
  const noLonger = NO_LONGER.test(body);
  const neverClause = /\bnever\b/i.test(body);
  body = body.replace(/\b(?:any ?more)\b/gi, ' ').replace(TEMPORAL_ADVERBS, ' ').replace(/\s+/g, ' ').replace(/^[\s,]+|[\s,]+$/g, '');
  body = stripFillers(body);

  const fragmentText = /^(?:\d|now\s+(?:based\s+)?in\b)/i.test(text) ? text : body;
  const fragment = ctx.inherited && !startsWithVerbPhrase(fragmentText) ? implicitSubject(fragmentText, { previous: ctx.inherited, sentenceInitial: false, isSurfaceStart: hasSurfaceStartingWith }) : undefined;
  let parsed = fragment ? { ...fragment, relations: [] } : ctx.inherited ? { subjects: ctx.inherited, rest: body, relations: [] } : parseSubject(body, { lastPerson: ctx.lastPerson, startsWithVerbPhrase, typeOfName: ctx.typeOfName });
  if (!parsed && ctx.sentenceInitial && !ctx.inherited) {
    const first = tokenize(body.replace(/^(?:(?:just|recently|finally|also|actually|really|totally|absolutely|officially)\s+)+/i, ''))[0]?.lower ?? '';
    const readings = readVerb(first);
    if (readings.some((r) => r.form === 'past' && SURFACES_BY_FIRST_WORD.has(r.lemma)) || readings.some((r) => r.form === 'base' && IMPLICIT_I_LEMMAS.has(r.lemma))) {
      parsed = { subjects: [{ ...USER, confidence: 0.9 }], rest: body, relations: [] };
    }
  }
  if (!parsed && !ctx.inherited) {
    const implicit = implicitSubject(fragmentText, { previous: ctx.previousSubjects, sentenceInitial: ctx.sentenceInitial, isSurfaceStart: hasSurfaceStartingWith });
    if (implicit) parsed = { ...implicit, relations: [] };
  }
  if (!parsed) return emptyAnalysis(ctx);

  const drafts: FactDraft[] = [];
  const draftFor = (subject: SubjectRef, predicate: string, object: string, raw: string, negated: boolean, timing: Timing, confidence: number): FactDraft => ({
    subject, predicate, predicateRaw: raw, object, negated, tense: timing.tense, validFrom: timing.validFrom, validTo: timing.validTo, confidence,
  });
  const current: Timing = { tense: 'current', validFrom: null, validTo: null };
  for (const relation of parsed.relations) {
    drafts.push(draftFor(USER, relation.predicate, relation.object, relation.surface, relation.negated, current, 0.9 * hedge));
  }
  const personSubject = parsed.subjects.find((s) => s.subject !== 'user' && s.subjectType === 'person');
  const lastPerson = personSubject ?? ctx.lastPerson;
  let verbHead: string | undefined;
  const done = (): ClauseAnalysis => ({ drafts, subjects: parsed!.subjects, lastPerson, ...(verbHead && drafts.length > 0 ? { verbHead } : {}) });

  // Agent notes drop the copula: "User diagnosed with ADHD at 30", "User born in Lagos".
  if (standsForBe(parsed.rest) && /^(?:born|raised|based|diagnosed|married|engaged|divorced|separated|allergic|employed|enrolled|retired|widowed|located|subscribed)\b/i.test(parsed.rest)) parsed = { ...parsed, rest: withBe(parsed.rest) };
  const tokens = tokenize(parsed.rest);
  const vp = parseVerbPhrase(tokens, hasSurfaceStartingWith);
  if (!vp) return done();

  let confidence = 0.9 * hedge * (vp.hedged ? 0.6 : 1);
  const strongHedge = vp.hedged || hedge < 0.6;

  const emit = (hit: { predicate: string; objects: string[]; raw: string; extras?: { predicate: string; object: string; negated?: boolean; replaced?: boolean }[]; keepsPolarity?: boolean }, aspect: SurfaceAspect, extraNegation = false) => {
    // "my parents retired to Scottsdale": a move in retirement, read as where they live now.
    const retiredTo = hit.predicate === 'job_title' && hit.objects[0] === 'retired' ? /\bretire[ds]?\s+to\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)/u.exec(text) : null;
    if (retiredTo) { hit = { ...hit, predicate: 'lives_in', objects: [retiredTo[1]], extras: [] }; aspect = 'onset'; }
    let negated = !hit.keepsPolarity && (vp.negated || aspect === 'end' || vp.phase === 'stop' || extraNegation);
    if (vp.negated && aspect === 'end') negated = false; // "I didn't sell my car"
    if (vp.negated && vp.phase === 'stop') negated = false;
    const effectiveAspect: SurfaceAspect = vp.phase === 'start' ? 'onset' : vp.phase === 'stop' ? 'end' : aspect;
    // "I might move to Lisbon": a possible change is not a fact yet.
    if (vp.hedged && effectiveAspect !== 'state' && vp.time === 'present') return;
    let tense = baseTense(vp.time, effectiveAspect);
    const upcomingVisit = hit.predicate === 'visited' && (tense === 'planned' || (vp.time === 'progressive' && !negated));
    const forward = tense === 'planned' || FUTURE_ORIENTED.has(hit.predicate) || upcomingVisit;
    if (forward) mentions = findDates(text, ctx.referenceTime, true);
    // A completed change cannot be dated ahead: "started on Monday" is the last Monday, "moved in March" the last March.
    if (!forward && (vp.time === 'past' || vp.time === 'perfect' || vp.time === 'past_perfect')) mentions = mentions.map((m) => (m.role === 'point' ? { ...m, date: notAfter(m.date, ctx.referenceTime) } : m));
    for (const item of [{ predicate: hit.predicate, object: '', negated: undefined as boolean | undefined, replaced: false }, ...(hit.extras ?? [])]) {
      let objects = item.object ? [item.object] : hit.objects;
      // "speaks German well": the language without the adverb.
      if (item.predicate === 'speaks') objects = objects.map((o) => o.replace(/^(?:a\s+)?word\s+of\s+(\S+).*$/i, '$1')).map((o) => (/^\S+\s+(?:well|fluently|badly|a bit|a little|ok|okay|decently|natively)$/i.test(o) && isLanguage(o.split(' ')[0]) ? o.split(' ')[0] : o));
      if (item.replaced) {
        if (negated || tense === 'past') continue;
        const planned = tense === 'planned';
        const now: Timing = { tense: 'current', validFrom: null, validTo: null };
        const timing = planned ? now : resolveTiming(item.predicate, 'current', mentions, ctx.referenceTime, false);
        for (const subject of parsed!.subjects) drafts.push(draftFor(subject, item.predicate, item.object, hit.raw, !planned, timing, confidence));
        continue;
      }
      let predicate = item.predicate;
      let itemNegated = item.negated ?? negated;
      let leftPlace = false;
      // "travel to", "go to", "visit" are trips when upcoming and visits when done.
      if (predicate === 'visited' && (tense === 'planned' || (vp.time === 'progressive' && !itemNegated))) predicate = 'trip_to';
      if (predicate === 'trip_to' && tense === 'past') predicate = 'visited';
      // Agent notes drop the auxiliary: "User traveling to Chicago on the 25th", "no longer traveling to Austin".
      if (predicate === 'visited' && /\b(?:travell?ing|flying|going|heading|driving)\s+(?:back\s+)?to$/i.test(hit.raw)) predicate = 'trip_to';
      // "fluent in SQL and Tableau": a skill when it is no human language.
      if (predicate === 'speaks' && objects.every((o) => !o.split(' ').some((w) => isLanguage(w)))) predicate = 'has_skill';
      // "I can use AutoCAD and Revit": being able to use a tool is a skill, not a habit.
      if (predicate === 'uses' && vp.ability) predicate = 'has_skill';
      // "switched to decaf": a drink switched to is drunk.
      if (predicate === 'uses' && objects.length > 0 && objects.every((o) => DRINK.test(o.replace(/\s+(?:after|before|at|in the)\b.*$/i, '').replace(/s$/, '')))) predicate = 'drinks';
      // "we left Dublin", "I'm not leaving Madrid": leaving a city is about where one lives, not an employer.
      if (predicate === 'works_at' && /\b(?:leave|leaves|leaving|left)$/i.test(hit.raw) && objects.length > 0 && objects.every(isCityOrCountry)) {
        predicate = 'lives_in';
        itemNegated = false;
        leftPlace = true;
      }
      // "got into Columbia for my master's" is an admission; "getting into birdwatching" a new pastime.
      if (predicate === 'likes' && !itemNegated && /\b(?:get|gets|got|gotten|getting)\s+(?:really\s+)?into$/i.test(hit.raw)) {
        if (objects.every((o) => /^\p{Lu}/u.test(o)) && STUDY_CONTEXT.test(text)) predicate = 'studies_at';
        else if (objects.every((o) => /^[a-z]+ing\b/.test(o))) predicate = 'hobby';
      }
      // "gave up oat milk", "cut out alcohol": what is given up is a drink when it names one.
      if (predicate === 'eats' && objects.every((o) => DRINK.test(o))) predicate = 'drinks';
      // "I don't like X (any more)" is a dislike; it also invalidates a live "likes X" as its opposite.
      // "not (really) into X" only denies the interest: NOT likes, not a dislike.
      if (predicate === 'likes' && itemNegated && !/\binto$/i.test(hit.raw)) { predicate = 'dislikes'; itemNegated = false; }
      // "I used to love horror films", "used to smoke": a habit or taste that has ended is denied now.
      if (vp.time === 'used_to' && !itemNegated && HABITS.has(predicate)) itemNegated = true;
      const timing = resolveTiming(predicate, tense, mentions, ctx.referenceTime, neverClause && !noLonger);
      // "we left Dublin in 2021": lived there until then; "we're leaving London": still lives there.
      if (leftPlace) {
        const completed = !vp.negated && (vp.time === 'past' || vp.time === 'perfect' || vp.time === 'past_perfect');
        if (completed) Object.assign(timing, { tense: 'past', validTo: timing.validFrom, validFrom: null });
        else Object.assign(timing, { tense: 'current', validFrom: null, validTo: null });
      }
      // "Paris until 2014, then London until 2020": London starts where the previous clause ended.
      const unknownStart = timing.tense === 'past' && timing.validTo && (!timing.validFrom || timing.validFrom.getTime() === timing.validTo.getTime());
      if (unknownStart && ctx.previousDate && ctx.previousDate.getTime() < timing.validTo!.getTime()) timing.validFrom = ctx.previousDate;
      // "I'm not moving to Leeds after all" calls a plan off now; a dated or open-ended future ending cannot be stored.
      if (timing.tense === 'planned' && itemNegated) {
        if (timing.validFrom || objects.includes(ANY_OBJECT)) continue;
        timing.tense = 'current';
      }
      if (timing.tense === 'planned' && strongHedge) continue;
      const itemConfidence = timing.tense === 'planned' && !timing.validFrom ? confidence * 0.8 : confidence;
      for (const subject of parsed!.subjects) {
        for (const object of objects) drafts.push(draftFor(subject, predicate, object, hit.raw, itemNegated, timing, itemConfidence));
      }
    }
  };

  if (vp.wants) {
    if (vp.negated) return done();
    const wanted = wantsDrafts(vp, tokens);
    if (wanted) emit({ ...wanted }, 'state');
    return done();
  }

  // "... and have a daughter named Lily" (the subject came from the previous clause).
  if (vp.readings.some((r) => r.lemma === 'have') && parsed.subjects.some((s) => s.subject === 'user')) {
    const relatives = relativesNamed(tokens.slice(vp.mainIndex + 1).map((t) => t.raw).join(' '));
    if (relatives) {
      for (const r of relatives) drafts.push(draftFor(USER, r.predicate, r.name, r.raw, r.negated, current, confidence));
      return done();
    }
  }

  const hit = firstHit(vp, tokens);
  if (hit) {
    verbHead = hit.raw;
    emit(hit, hit.aspect);
    // "born in Glasgow in 1961": the year of birth too.
    const year = hit.predicate === 'born_in' ? mentions.find((m) => m.role === 'point' && /^(?:in\s+)?(?:19|20)\d{2}$/.test(m.text.trim())) : undefined;
    if (year) for (const subject of parsed.subjects) drafts.push(draftFor(subject, 'birth_year', String(year.date.getUTCFullYear()), hit.raw, false, { tense: 'current', validFrom: null, validTo: null }, confidence));
    return done();
  }

  if (vp.readings.some((r) => r.lemma === 'be')) {
    const complement = tokens.slice(vp.mainIndex + 1).map((t) => t.raw).join(' ');
    // "Sanjay got promoted, he's my manager now": the user's relation to the subject.
    const relation = /^(?:also\s+)?(?:[Mm]y|[Oo]ur)\s+(?:new\s+)?([a-z][a-z -]*?)(?:\s+now)?$/.exec(complement);
    const person = parsed.subjects.find((s) => s.subjectType === 'person' && !s.subject.startsWith("user's"));
    if (relation && person && RELATIONS[relation[1]] && !vp.negated) {
      drafts.push(draftFor(USER, RELATIONS[relation[1]].predicate, person.subject, `is my ${relation[1]}`, false, baseTiming(vp.time), confidence));
      return done();
    }
    const facts = copulaFacts(complement, parsed.subjects.some((s) => s.subject === 'user'));
    const raw = tokens.slice(0, vp.mainIndex + 1).map((t) => t.raw).join(' ');
    const home = residenceIn(complement, { perfect: vp.time === 'perfect', statedStart: mentions.some((m) => m.role === 'start') });
    if (home) facts.push({ predicate: 'lives_in', object: home });
    for (const fact of facts) {
      if (fact.object === ANY_OBJECT && vp.negated) continue;
      emit({ predicate: fact.predicate, objects: [fact.object], raw }, 'state', fact.negated === true);
    }
  }
  const aboutNamedSubjects = parsed.subjects.every((s) => s.subject === 'user' || (s.subjectType === 'person' && !s.subject.includes("'")));
  const activity = drafts.length === 0 ? activityHabit(vp, tokens) : undefined;
  if (activity) {
    emit(activity, 'state');
    return done();
  }
  const unmapped = drafts.length === 0 && aboutNamedSubjects ? unmappedRelation(vp, tokens) : undefined;
  if (unmapped) emit(unmapped, 'state');
  return done();
}
