import nlp from 'compromise';
import type { SubjectType } from '../../types.js';
import { subjectKey } from '../normalize.js';
import { analyzeClause, startsClauseFragment, startsWithTaxonomyVerb, startsWithVerbPhrase } from './clause.js';
import { readVerb } from './inflection.js';
import { setPersonNameCheck } from './lexicon.js';
import { splitClauses } from './sentences.js';
import { leadingName, type SubjectRef } from './subjects.js';
import type { SentenceRun } from './passes.js';

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
 * The clause parser's pass: the sentence split into clauses, each read for its subject, verb and object. A clause
 * without its own subject takes the previous one's; a clause that leaves out its verb ("then London until 2020")
 * takes the previous clause's.
 */
export function readClauses(s: SentenceRun): void {
  const clauses = splitClauses(s.sentence.replace(/[.!…]+$/, ''), startsWithTaxonomyVerb, startsWithNameAndVerb, containsVerb, startsClauseFragment);
  let previousSubjects: SubjectRef[] | undefined;
  let previous: { verbHead?: string; date?: Date } = {};
  clauses.forEach((clause, index) => {
    if (clause.subordinate) return;
    const context = {
      referenceTime: s.referenceTime,
      inherited: clause.inheritsSubject ? previousSubjects : undefined,
      lastPerson: s.lastPerson,
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
    s.lastPerson = analysis.lastPerson;
    for (const draft of analysis.drafts) {
      // Ages read from the whole sentence replace the clause parser's reading for the same subject.
      if (draft.predicate === 'age' && s.agedSubjects.has(subjectKey(draft.subject.subject))) continue;
      s.add(draft);
    }
  });
}
