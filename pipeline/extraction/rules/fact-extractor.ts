import nlp from 'compromise';
import type { ExtractedFact, ExtractionInput, FactExtractor, SubjectType } from '../../types.js';
import { normalizeObject, subjectKey } from '../normalize.js';
import { ANY_OBJECT, familyOf } from '../taxonomy.js';
import { ageFacts, introducedName } from './ages.js';
import { impliedFacts } from './implied.js';
import { analyzeClause, startsClauseFragment, startsWithTaxonomyVerb, startsWithVerbPhrase } from './clause.js';
import { readVerb } from './inflection.js';
import { expandContractions } from './contractions.js';
import { toExtractedFact, type FactDraft } from './draft.js';
import { mentionedRelatives } from './relatives.js';
import { cleanObject } from './object-sanity.js';
import { nameEndedEmployer } from './ended-employer.js';
import { wishedPlaces } from './wishes.js';
import { rewriteReportedChange } from './reported-changes.js';
import { profileLineFacts } from './profile-lines.js';
import { labelLineFacts } from './label-lines.js';
import { journeyFacts } from './journeys.js';
import { membershipFacts } from './memberships.js';
import { homeFacts } from './homes.js';
import { employmentFacts } from './employment.js';
import { namedChildren } from './children.js';
import { correctTypos } from './typos.js';
import { QUESTION_STARTERS, setPersonNameCheck } from './lexicon.js';
import { stripMarkdown } from './markdown.js';
import { splitClauses, splitSentences as splitPlainSentences } from './sentences.js';
import { restate } from './restatements.js';
import { datePlansFromMessage, leavesDatesFree } from './plan-dates.js';
import { replacedValues } from './replacements.js';
import { deniedObject } from './category-denials.js';
import { petLossByName, petNameIn, withPetName } from './pet-names.js';
import { USER, leadingName, type SubjectRef } from './subjects.js';
import { toFirstPerson } from './third-person.js';
import { userText } from './transcript.js';

/** Content beyond this many characters is ignored (the API caps content at 16,000). */
export const MAX_CONTENT_CHARS = 16_000;

const REQUEST_EXCEPTIONS = /^(?:call me\b|please (?:remember|note|keep in mind)\b|have (?:a|an|two|three) (?:dog|cat|\w+ allergy)\b|do not eat\b)/i;

/** Questions and requests to the assistant state no facts about the user. */
export function isQuestionOrRequest(sentence: string): boolean {
  const s = sentence.trim();
  if (/\?\s*["')\]]*$/.test(s)) return true;
  if (REQUEST_EXCEPTIONS.test(s)) return false;
  const first = /^[^\p{L}]*([\p{L}']+)/u.exec(s)?.[1]?.toLowerCase();
  return first !== undefined && QUESTION_STARTERS.has(first);
}

const nameTypes = new Map<string, SubjectType>();

/** Entity type of a capitalised subject, by compromise; people by default. */
function typeOfName(name: string, clause: string): SubjectType {
  const cached = nameTypes.get(name);
  if (cached) return cached;
  const doc = nlp(clause).match(name);
  let type: SubjectType = 'person';
  if (doc.has('#Organization')) type = 'organization';
  else if (doc.has('#Place')) type = 'place';
  if (nameTypes.size > 2000) nameTypes.clear();
  nameTypes.set(name, type);
  return type;
}

const firstNames = new Map<string, boolean>();
setPersonNameCheck((name) => {
  let known = firstNames.get(name);
  if (known === undefined) {
    known = name.split(/\s+/).length <= 2 && nlp(name).has('#FirstName');
    if (firstNames.size > 2000) firstNames.clear();
    firstNames.set(name, known);
  }
  return known;
});

const startsWithNameAndVerb = (text: string) => leadingName(text, startsWithVerbPhrase) !== undefined;
const containsVerb = (text: string) =>
  text.split(/\s+/).some((word) => /^(?:am|is|are|was|were|have|has|had|do|does|did|will|would|can)$/i.test(word) || readVerb(word.toLowerCase().replace(/[^a-z]/g, '')).some((r) => r.form !== 'gerund' && (/^[a-z]/.test(word) || r.form === 'past')));

const NOT_ANY_MORE = /\b(?:but|and)\s+(?:(?:I|we)\s+(?:am|are|do|does)\s+|it\s+is\s+)?not\s+any\s?more\b/i;
const NOT_MEANT = /\b(?:joking|jk|j\/k|kidding|just kidding|in my dreams|yeah right)\b/i;
/** The block's sentences, each restated into the plain statements the clause parser reads (restatements.ts). */
function splitSentences(plain: string): string[] {
  const agentNote = /\b(?:the )?user(?:'s)?\b/i.test(plain) && !/^\s*user:/im.test(plain);
  return splitPlainSentences(plain).flatMap((s) => restate(s, agentNote));
}

/** A clause that is only a name and a date after "then" ("then London until 2020"), or undefined. */
function leftOutVerb(clause: string): string | undefined {
  const m = /^(?:(?:and\s+)?(?:then|later|after that|afterwards)\s+)?([A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)*\s+(?:until|till|from|in|for|since)\s.*)$/u.exec(clause.trim());
  return m?.[1];
}

function lastStatedDate(drafts: { validFrom: Date | null; validTo: Date | null }[]): Date | undefined {
  for (let i = drafts.length - 1; i >= 0; i--) {
    const d = drafts[i].validTo ?? drafts[i].validFrom;
    if (d) return d;
  }
  return undefined;
}

/**
 * Rule-based extraction, synchronous. Deterministic: the output depends only
 * on `content` and `referenceTime`.
 */
export function extractFactsWithRules(input: ExtractionInput): ExtractedFact[] {
  const content = input.content.length > MAX_CONTENT_CHARS ? input.content.slice(0, MAX_CONTENT_CHARS) : input.content;
  if (content.trim().length < 4) return [];
  const facts: ExtractedFact[] = [];
  const seen = new Set<string>();
  let lastPerson: SubjectRef | undefined;
  const add = (draft: FactDraft) => {
    // "my parents live in Milwaukee": a fact about each parent (a shared anniversary stays joint).
    if (/^user['’]s parents$/i.test(draft.subject.subject) && draft.predicate !== 'anniversary') {
      for (const parent of ["user's mother", "user's father"]) add({ ...draft, subject: { ...draft.subject, subject: parent } });
      return;
    }
    // "my son Dara's got a nut allergy": the name, not "Dara's" ("'s" was "has").
    if (/^\p{Lu}[\p{L}-]+['’]s$/u.test(draft.subject.subject)) draft = { ...draft, subject: { ...draft.subject, subject: draft.subject.subject.replace(/['’]s$/, '') } };
    // "my dream is visit New York and Chicago": a wish to go is wants_to_visit each place.
    const wished = draft.predicate === 'wants_to' && !draft.negated ? wishedPlaces(draft.object) : undefined;
    if (wished) {
      for (const place of wished.places) add({ ...draft, predicate: 'wants_to_visit', object: place });
      if (wished.tripOnly) return;
    }
    const fact = toExtractedFact(draft);
    // "my dad Brian's 70th": the name without its possessive.
    if (fact.family === 'people') fact.object = fact.object.replace(/['’]s$/, '');
    const cleaned = cleanObject(fact.predicate, fact.object);
    if (cleaned === undefined) return;
    fact.object = fact.negated ? deniedObject(fact.predicate, cleaned) : cleaned;
    // "my girlfriend and I broke up": the relation names no one; a denial ends whoever it is.
    if (fact.family === 'people' && /^(?:my|our)\s+[a-z-]+$/i.test(fact.object)) {
      if (!fact.negated) return;
      fact.object = ANY_OBJECT;
    }
    // "Taylor Swift is playing Wembley": a performer named in full playing a capitalised venue is a gig, not a sport or game.
    if (fact.predicate === 'plays' && fact.subjectType === 'person' && /^\p{Lu}\S*\s+\p{Lu}/u.test(fact.subject) && /^\p{Lu}/u.test(fact.object) && /\bplaying\b/i.test(draft.predicateRaw)) return;
    // "my flight to delhi is on the 3rd": an event that is a journey is a trip to its destination.
    const journey = (fact.predicate === 'attending' || fact.predicate === 'has_appointment') && !fact.negated ? /^(?:flight|train|ferry|coach|bus|drive|trip)\s+to\s+(.+)$/i.exec(fact.object) : null;
    if (journey) Object.assign(fact, { predicate: 'trip_to', family: familyOf('trip_to'), object: journey[1] });
    const key = `${subjectKey(fact.subject)}|${fact.predicate}|${normalizeObject(fact.object)}|${fact.negated}`;
    if (seen.has(key)) return;
    seen.add(key);
    facts.push(fact);
  };

  for (const block of userText(content)) {
    // E-mail header lines ("To: HR", "Re: Address change", "Subject: ...") state nothing about the writer.
    const plain = expandContractions(correctTypos(stripMarkdown(block))).replace(/^[ \t]*(?:to|from|cc|bcc|re|subject|sent)[ \t]*:.*$/gim, '');
    const blockStart = facts.length;
    const sentencesWithFreeDates: string[] = [];
    for (const raw of splitSentences(plain)) {
      if (isQuestionOrRequest(raw)) continue;
      // "(joking obviously)", "jk": what the sentence says is not meant.
      if (NOT_MEANT.test(raw)) continue;
      const sentenceStart = facts.length;
      // Ages are read from the whole sentence; they replace the clause parser's reading for the same subject.
      const ages = ageFacts(raw);
      const agedSubjects = new Set(ages.map((a) => subjectKey(a.subject.subject)));
      const introduced = introducedName(raw);
      const sentenceDrafts = [...ages, ...(introduced ? [{ ...ages[0], predicate: 'name', predicateRaw: 'I am', object: introduced }] : [])];
      sentenceDrafts.forEach(add);
      const sentence = rewriteReportedChange(toFirstPerson(raw))
        // "Before Arup I worked at Atkins": the leading phrase only dates the clause.
        .replace(/^(?:[Bb]efore|[Aa]fter|[Uu]ntil)\s+[A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*,?\s+(?=I\b)/u, '');
      const clauses = splitClauses(sentence.replace(/[.!…]+$/, ''), startsWithTaxonomyVerb, startsWithNameAndVerb, containsVerb, startsClauseFragment);
      const profile = [...profileLineFacts(sentence, input.referenceTime), ...labelLineFacts(sentence, input.referenceTime)];
      const mentioned = mentionedRelatives(sentence).map((r): FactDraft => ({ subject: USER, predicate: r.predicate, predicateRaw: r.raw, object: r.name, negated: r.negated, tense: 'current', validFrom: null, validTo: null, confidence: 0.85 }));
      let previousSubjects: SubjectRef[] | undefined;
      let previous: { verbHead?: string; date?: Date } = {};
      clauses.forEach((clause, index) => {
        if (clause.subordinate) return;
        const context = {
          referenceTime: input.referenceTime,
          inherited: clause.inheritsSubject ? previousSubjects : undefined,
          lastPerson,
          sentenceInitial: index === 0,
          previousSubjects,
          previousDate: previous.date,
          typeOfName,
        };
        let analysis = analyzeClause(clause.text, context);
        // "I lived in Paris until 2014, then London until 2020": the second clause leaves out its verb.
        const gapped = analysis.drafts.length === 0 && previous.verbHead ? leftOutVerb(clause.text) : undefined;
        if (gapped) analysis = analyzeClause(`${previous.verbHead} ${gapped}`, { ...context, inherited: previousSubjects, sentenceInitial: false });
        previous = { verbHead: analysis.verbHead ?? (analysis.drafts.length > 0 ? undefined : previous.verbHead), date: lastStatedDate(analysis.drafts) ?? previous.date };
        if (analysis.subjects) previousSubjects = analysis.subjects;
        lastPerson = analysis.lastPerson;
        for (const draft of analysis.drafts) {
          // Ages read from the whole sentence replace the clause parser's reading for the same subject.
          if (draft.predicate === 'age' && agedSubjects.has(subjectKey(draft.subject.subject))) continue;
          add(draft);
        }
      });
      profile.forEach(add);
      journeyFacts(sentence, input.referenceTime).forEach(add);
      membershipFacts(sentence).forEach(add);
      homeFacts(sentence).forEach(add);
      employmentFacts(sentence, input.referenceTime).forEach(add);
      namedChildren(sentence).forEach(add);
      mentioned.forEach(add);
      const losses = petLossByName(sentence);
      // "We lost Clover": a named being, not a possession the parser took it for.
      for (const loss of losses) removeWhere(facts, sentenceStart, (f) => f.predicate === 'owns' && f.negated && f.object === loss.object);
      losses.forEach(add);
      facts.push(...replacedValues(sentence, facts.slice(sentenceStart)));
      nameThePet(facts.slice(sentenceStart), sentence);
      // "I was vegetarian for ten years but I'm not any more": the elliptical clause denies the past state now.
      if (NOT_ANY_MORE.test(sentence)) {
        for (const fact of facts.slice(sentenceStart)) if (fact.tense === 'past' && !fact.negated) Object.assign(fact, { negated: true, tense: 'current', validFrom: null, validTo: null });
      }
      if (leavesDatesFree(facts.slice(sentenceStart))) sentencesWithFreeDates.push(raw);
    }
    datePlansFromMessage(facts.slice(blockStart), sentencesWithFreeDates, input.referenceTime);
  }
  facts.push(...impliedFacts(facts));
  return nameEndedEmployer(facts, content);
}

function removeWhere(facts: ExtractedFact[], from: number, drop: (f: ExtractedFact) => boolean): void {
  for (let i = facts.length - 1; i >= from; i--) if (drop(facts[i])) facts.splice(i, 1);
}

/** The sentence's one pet gets the name the sentence gives it (pet-names.ts). */
function nameThePet(sentenceFacts: ExtractedFact[], sentence: string): void {
  const pets = sentenceFacts.filter((f) => f.predicate === 'has_pet' && !f.negated && f.object !== ANY_OBJECT);
  if (pets.length !== 1) return;
  const name = petNameIn(sentence, pets[0].object);
  if (name) pets[0].object = withPetName(pets[0].object, name);
}

export class RuleFactExtractor implements FactExtractor {
  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return extractFactsWithRules(input);
  }
}
