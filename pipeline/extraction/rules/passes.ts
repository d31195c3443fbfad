import type { ExtractedFact } from '../../types.js';
import { subjectKey } from '../normalize.js';
import { ANY_OBJECT } from '../taxonomy.js';
import { ageFacts, introducedName } from './ages.js';
import { deniedObject } from './category-denials.js';
import { namedChildren } from './children.js';
import { readClauses } from './clause-pass.js';
import type { FactDraft } from './draft.js';
import { employmentFacts } from './employment.js';
import { nameEndedEmployer } from './ended-employer.js';
import { homeFacts } from './homes.js';
import { impliedFacts } from './implied.js';
import { journeyFacts } from './journeys.js';
import { labelLineFacts } from './label-lines.js';
import { membershipFacts } from './memberships.js';
import { cleanObject } from './object-sanity.js';
import { petLossByName, petNameIn, withPetName } from './pet-names.js';
import { datePlansFromMessage } from './plan-dates.js';
import { profileLineFacts } from './profile-lines.js';
import { mentionedRelatives } from './relatives.js';
import { USER, type SubjectRef } from './subjects.js';
import { wishedPlaces } from './wishes.js';

/** A proposed fact read again before it is kept: what it stands for (none: nothing). */
export interface DraftRewrite {
  readonly name: string;
  rewrite(draft: FactDraft): FactDraft[];
}

/** A fact amended before it is kept, or dropped (undefined). */
export interface FactFix {
  readonly name: string;
  fix(fact: ExtractedFact, draft: FactDraft): ExtractedFact | undefined;
}

/** One sentence as the passes read it, and what they may do to its facts. */
export interface SentenceRun {
  /** The sentence as restated (restatements.ts), before it is put in the first person. */
  readonly raw: string;
  /** What the clause parser reads: the sentence in the first person, reported changes rewritten. */
  readonly sentence: string;
  readonly referenceTime: Date;
  /** Subjects whose age was read from the whole sentence (the clause parser's reading of them is dropped). */
  readonly agedSubjects: Set<string>;
  /** The last person named in the message so far: "he" and "she" refer to them. */
  lastPerson: SubjectRef | undefined;
  /** Cleans a proposed fact and keeps it unless an earlier pass gave the same one. */
  add(draft: FactDraft): void;
  remove(drop: (fact: ExtractedFact) => boolean): void;
  /** The sentence's facts so far, the objects themselves: a pass may amend them. */
  facts(): ExtractedFact[];
}

export interface SentencePass {
  readonly name: string;
  run(s: SentenceRun): void;
}

/** A message's facts once every sentence is read, and the text they came from. */
export interface MessagePass {
  readonly name: string;
  /** The message's facts after the pass: the same objects, amended, dropped or joined by new ones. */
  run(facts: ExtractedFact[], content: string): ExtractedFact[];
}

/** A block's facts once its sentences are read, with the sentences that stated no date. */
export interface BlockPass {
  readonly name: string;
  run(facts: ExtractedFact[], sentencesWithFreeDates: string[], referenceTime: Date): void;
}

/** What every pass's proposed facts go through, in order, before the first of equal facts is kept. */
export const DRAFT_REWRITES: readonly DraftRewrite[] = [
  {
    // "my parents live in Milwaukee": a fact about each parent (a shared anniversary stays joint).
    name: 'each-parent',
    rewrite: (d) =>
      /^user['’]s parents$/i.test(d.subject.subject) && d.predicate !== 'anniversary'
        ? ["user's mother", "user's father"].map((parent) => ({ ...d, subject: { ...d.subject, subject: parent } }))
        : [d],
  },
  {
    // "my son Dara's got a nut allergy": the name, not "Dara's" ("'s" was "has").
    name: 'possessive-subject',
    rewrite: (d) => [/^\p{Lu}[\p{L}-]+['’]s$/u.test(d.subject.subject) ? { ...d, subject: { ...d.subject, subject: d.subject.subject.replace(/['’]s$/, '') } } : d],
  },
  {
    // "my dream is visit New York and Chicago": a wish to go is wants_to_visit each place.
    name: 'wished-places',
    rewrite(d) {
      const wished = d.predicate === 'wants_to' && !d.negated ? wishedPlaces(d.object) : undefined;
      if (!wished) return [d];
      return [...wished.places.map((place) => ({ ...d, predicate: 'wants_to_visit', object: place })), ...(wished.tripOnly ? [] : [d])];
    },
  },
];

export const FACT_FIXES: readonly FactFix[] = [
  {
    // "my dad Brian's 70th": the name without its possessive.
    name: 'possessive-person',
    fix: (f) => (f.family === 'people' ? { ...f, object: f.object.replace(/['’]s$/, '') } : f),
  },
  {
    // Objects that are not values of the predicate are dropped; a denied category keeps its category word.
    name: 'object-sanity',
    fix(f) {
      const cleaned = cleanObject(f.predicate, f.object);
      if (cleaned === undefined) return undefined;
      return { ...f, object: f.negated ? deniedObject(f.predicate, cleaned) : cleaned };
    },
  },
  {
    // "my girlfriend and I broke up": the relation names no one; a denial ends whoever it is.
    name: 'unnamed-relation',
    fix: (f) => (f.family === 'people' && /^(?:my|our)\s+[a-z-]+$/i.test(f.object) ? (f.negated ? { ...f, object: ANY_OBJECT } : undefined) : f),
  },
  {
    // "Taylor Swift is playing Wembley": a performer named in full playing a capitalised venue is a gig, not a sport or game.
    name: 'gig-not-game',
    fix: (f, d) =>
      f.predicate === 'plays' && f.subjectType === 'person' && /^\p{Lu}\S*\s+\p{Lu}/u.test(f.subject) && /^\p{Lu}/u.test(f.object) && /\bplaying\b/i.test(d.predicateRaw) ? undefined : f,
  },
];

const NOT_ANY_MORE = /\b(?:but|and)\s+(?:(?:I|we)\s+(?:am|are|do|does)\s+|it\s+is\s+)?not\s+any\s?more\b/i;

/**
 * The rule extractor, pass by pass, in the order they run on each sentence. A fact a pass proposes that an earlier
 * one already gave is dropped, so the order is the precedence. `npx tsx test/eval/extraction/run.ts --passes`
 * prints each pass's hits and errors, and `--without-pass NAME` measures the extractor without it.
 */
export const SENTENCE_PASSES: readonly SentencePass[] = [
  {
    // Ages are read from the whole sentence; they replace the clause parser's reading for the same subject.
    name: 'ages',
    run(s) {
      const ages = ageFacts(s.raw);
      for (const age of ages) s.agedSubjects.add(subjectKey(age.subject.subject));
      ages.forEach(s.add);
      // "im Jess, 23, ...": the writer's name comes with their age.
      const introduced = ages.length > 0 ? introducedName(s.raw) : undefined;
      if (introduced) s.add({ ...ages[0], predicate: 'name', predicateRaw: 'I am', object: introduced });
    },
  },
  { name: 'clauses', run: readClauses },
  { name: 'profile-lines', run: (s) => profileLineFacts(s.sentence, s.referenceTime).forEach(s.add) },
  { name: 'label-lines', run: (s) => labelLineFacts(s.sentence, s.referenceTime).forEach(s.add) },
  { name: 'journeys', run: (s) => journeyFacts(s.sentence, s.referenceTime).forEach(s.add) },
  { name: 'memberships', run: (s) => membershipFacts(s.sentence).forEach(s.add) },
  { name: 'homes', run: (s) => homeFacts(s.sentence).forEach(s.add) },
  { name: 'employment', run: (s) => employmentFacts(s.sentence, s.referenceTime).forEach(s.add) },
  { name: 'children', run: (s) => namedChildren(s.sentence).forEach(s.add) },
  {
    name: 'relatives',
    run: (s) =>
      mentionedRelatives(s.sentence).forEach((r) =>
        s.add({ subject: USER, predicate: r.predicate, predicateRaw: r.raw, object: r.name, negated: r.negated, tense: 'current', validFrom: null, validTo: null, confidence: 0.85 }),
      ),
  },
  {
    // "We lost Clover": a named being, not a possession the parser took it for.
    name: 'pet-losses',
    run(s) {
      const losses = petLossByName(s.sentence);
      for (const loss of losses) s.remove((f) => f.predicate === 'owns' && f.negated && f.object === loss.object);
      losses.forEach(s.add);
    },
  },
  {
    // The sentence's one pet gets the name the sentence gives it.
    name: 'pet-names',
    run(s) {
      const pets = s.facts().filter((f) => f.predicate === 'has_pet' && !f.negated && f.object !== ANY_OBJECT);
      if (pets.length !== 1) return;
      const name = petNameIn(s.sentence, pets[0].object);
      if (name) pets[0].object = withPetName(pets[0].object, name);
    },
  },
  {
    // "I was vegetarian for ten years but I'm not any more": the elliptical clause denies the past state now.
    name: 'not-any-more',
    run(s) {
      if (!NOT_ANY_MORE.test(s.sentence)) return;
      for (const fact of s.facts()) if (fact.tense === 'past' && !fact.negated) Object.assign(fact, { negated: true, tense: 'current', validFrom: null, validTo: null });
    },
  },
];

/** Plans the message dates once ("the 3rd") take that date. */
export const BLOCK_PASSES: readonly BlockPass[] = [{ name: 'plan-dates', run: datePlansFromMessage }];

export const MESSAGE_PASSES: readonly MessagePass[] = [
  { name: 'implied', run: (facts) => [...facts, ...impliedFacts(facts)] },
  { name: 'ended-employer', run: nameEndedEmployer },
];

export const RULE_PASS_NAMES: readonly string[] = [...DRAFT_REWRITES, ...FACT_FIXES, ...SENTENCE_PASSES, ...BLOCK_PASSES, ...MESSAGE_PASSES].map((p) => p.name);
