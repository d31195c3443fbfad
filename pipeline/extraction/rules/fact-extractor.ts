import nlp from 'compromise';
import type { ExtractedFact, ExtractionInput, FactExtractor, SubjectType } from '../../types.js';
import { normalizeObject, subjectKey } from '../normalize.js';
import { ageFacts, introducedName } from './ages.js';
import { impliedFacts } from './implied.js';
import { analyzeClause, startsWithTaxonomyVerb, startsWithVerbPhrase } from './clause.js';
import { readVerb } from './inflection.js';
import { expandContractions } from './contractions.js';
import { toExtractedFact } from './draft.js';
import { QUESTION_STARTERS, setPersonNameCheck } from './lexicon.js';
import { stripMarkdown } from './markdown.js';
import { splitClauses, splitSentences } from './sentences.js';
import { leadingName, type SubjectRef } from './subjects.js';
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

  for (const block of userText(content)) {
    const plain = expandContractions(stripMarkdown(block));
    for (const raw of splitSentences(plain)) {
      if (isQuestionOrRequest(raw)) continue;
      // Ages are read from the whole sentence; they replace the clause parser's reading for the same subject.
      const ages = ageFacts(raw);
      const agedSubjects = new Set(ages.map((a) => subjectKey(a.subject.subject)));
      const introduced = introducedName(raw);
      const sentenceDrafts = [...ages, ...(introduced ? [{ ...ages[0], predicate: 'name', predicateRaw: 'I am', object: introduced }] : [])];
      for (const draft of sentenceDrafts) {
        const fact = toExtractedFact(draft);
        const key = `${subjectKey(fact.subject)}|${fact.predicate}|${normalizeObject(fact.object)}|${fact.negated}`;
        if (!seen.has(key)) {
          seen.add(key);
          facts.push(fact);
        }
      }
      const sentence = toFirstPerson(raw)
        // "The doctor switched me from A to B", "my GP put me on X": the change is the user's.
        .replace(/^(?:the |my )?(?:doctor|doc|gp|consultant|psychiatrist|specialist|nurse|dentist|they|she|he|dr\.? [A-Z][a-z]+)\s+(switched|moved|changed|put|started|upped|increased|reduced|lowered|took)\s+me\s+(?=from|to|on|off)/i, (_m, verb: string) => (/^(?:put|started)$/i.test(verb) ? 'I started ' : /^took$/i.test(verb) ? 'I came ' : `I ${verb} `))
        // "Before Arup I worked at Atkins": the leading phrase only dates the clause.
        .replace(/^(?:[Bb]efore|[Aa]fter|[Uu]ntil)\s+[A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*,?\s+(?=I\b)/u, '');
      const clauses = splitClauses(sentence.replace(/[.!…]+$/, ''), startsWithTaxonomyVerb, startsWithNameAndVerb, containsVerb);
      let previousSubjects: SubjectRef[] | undefined;
      clauses.forEach((clause, index) => {
        if (clause.subordinate) return;
        const analysis = analyzeClause(clause.text, {
          referenceTime: input.referenceTime,
          inherited: clause.inheritsSubject ? previousSubjects : undefined,
          lastPerson,
          sentenceInitial: index === 0,
          typeOfName,
        });
        if (analysis.subjects) previousSubjects = analysis.subjects;
        lastPerson = analysis.lastPerson;
        for (const draft of analysis.drafts) {
          if (draft.predicate === 'age' && agedSubjects.has(subjectKey(draft.subject.subject))) continue;
          const fact = toExtractedFact(draft);
          const key = `${subjectKey(fact.subject)}|${fact.predicate}|${normalizeObject(fact.object)}|${fact.negated}`;
          if (seen.has(key)) continue;
          seen.add(key);
          facts.push(fact);
        }
      });
    }
  }
  facts.push(...impliedFacts(facts));
  return facts;
}

export class RuleFactExtractor implements FactExtractor {
  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return extractFactsWithRules(input);
  }
}
