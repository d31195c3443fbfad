import { PREDICATES, isSingleValued, type ObjectClass } from '../taxonomy.js';
import type { FactDraft } from './draft.js';
import { findDates, removeMentions } from './dates.js';
import { RELATIONS } from './lexicon.js';
import { readVerb } from './inflection.js';
import { extractObjects } from './objects.js';
import { USER } from './subjects.js';

/**
 * Forms, profiles and terse notes state facts as "label: values" without a verb: "Roommates: Felix & Jo",
 * "Bank: Revolut + Nationwide", "Allergies: penicillin, latex", "Wants to visit: Iceland, Patagonia".
 * The label names the predicate in the taxonomy's own words: its name ("wants to visit"), a word of its
 * name or description ("bank" -> banks_with, "allergies" -> allergic_to, "clubs" -> member_of), or a
 * relation noun ("roommates" -> has_roommate). A word that several predicates share names none of them.
 */

const IGNORED = new Set(
  'a an and as by d for has have in is it of on or other such subject that the to what with month unspecified kind lasting experience negated avoids attended now known'.split(' '),
);
/** Form shorthand for a word the taxonomy uses. */
const SHORTHAND: Record<string, string> = { meds: 'medication', medications: 'medication', appt: 'appointment', appts: 'appointment', dx: 'condition', diagnosis: 'condition', conditions: 'condition' };

function singular(word: string): string {
  if (/ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:ss|us)$/.test(word)) return word;
  return word.replace(/s$/, '');
}

const predicatesByWord: Map<string, Set<string>> = (() => {
  const map = new Map<string, Set<string>>();
  for (const p of PREDICATES) {
    const words = `${p.name.replace(/_/g, ' ')} ${p.description}`.toLowerCase().match(/[a-z-]+/g) ?? [];
    for (const word of words.map(singular)) {
      if (IGNORED.has(word) || word.length < 3) continue;
      const set = map.get(word) ?? new Set<string>();
      set.add(p.name);
      map.set(word, set);
    }
  }
  return map;
})();
const predicateNames = new Set(PREDICATES.map((p) => p.name));

/** The predicate a form label names, or undefined when it names none or several. */
export function labelPredicate(label: string): string | undefined {
  const words = label
    .toLowerCase()
    .replace(/^(?:(?:the\s+)?user(?:'s|’s)?|my|our|current|main|preferred)\s+/g, '')
    .replace(/^(?:is|am|are)\s+/, '')
    .trim()
    .split(/\s+/);
  const name = words.join('_');
  if (predicateNames.has(name)) return name;
  if (words.length === 1) {
    const relation = RELATIONS[singular(words[0])];
    if (relation) return relation.predicate === 'has_child' ? undefined : relation.predicate;
  }
  const head = singular(SHORTHAND[words[words.length - 1]] ?? words[words.length - 1]);
  const candidates = predicatesByWord.get(head);
  return candidates && candidates.size === 1 ? [...candidates][0] : undefined;
}

function objectClassOf(predicate: string): ObjectClass {
  const spec = PREDICATES.find((p) => p.name === predicate);
  if (spec?.objectKind === 'place') return 'place';
  if (spec?.objectKind === 'literal' && spec.family === 'financial') return 'money';
  if (spec?.objectKind === 'person') return 'person';
  return spec?.surfaces.find((s) => s.objectClass)?.objectClass ?? 'any';
}

/** Work lines belong to profile-lines.ts; goals are verb phrases, not values. */
const LEFT_TO_OTHERS = new Set(['job_title', 'works_at', 'works_in', 'has_skill', 'wants_to']);

/** A value that is a clause, not a noun phrase: "sold the Fiesta", "user has $9,400 on a card". */
function isClause(item: string): boolean {
  const words = item.toLowerCase().split(/\s+/);
  if (words.length > 5) return true;
  return readVerb(words[0]).some((r) => r.form === 'past' || r.form === 'third' || r.form === 'gerund') || words.some((w) => /^(?:is|are|was|were|has|have|had|am)$/.test(w));
}

const LABEL_LINE = /^\s*(?:[-*•]\s*)?([A-Za-z][A-Za-z'’ ]{1,30}?)\s*:\s*(\S.*)$/;
/** "Height 1.68m", "Weight 82kg (down from 90)": a measure's label may go without a colon before its number. */
const MEASURE_LINE = /^\s*(?:[-*•]\s*)?([A-Z][a-z]{1,15})\s+([~$£€]?\d.*)$/;
const isMeasure = (predicate: string) => PREDICATES.some((p) => p.name === predicate && p.objectKind === 'literal');

/** Facts about the user from a "label: values" line, or none when the label names no predicate. */
export function labelLineFacts(sentence: string, referenceTime: Date): FactDraft[] {
  const measure = MEASURE_LINE.exec(sentence);
  const line = LABEL_LINE.exec(sentence) ?? (measure && isMeasure(labelPredicate(measure[1].trim()) ?? '') ? measure : null);
  if (!line || /^(?:user|assistant)$/i.test(line[1].trim())) return [];
  const predicate = labelPredicate(line[1].trim());
  if (!predicate || LEFT_TO_OTHERS.has(predicate)) return [];
  // "Sister: Freya, bro: none": the values end where the next label starts.
  const value = line[2].replace(/[,;]\s*[A-Za-z][A-Za-z ]{0,20}:\s.*$/, '').replace(/[.!]\s.*$/, '');
  const objectClass = objectClassOf(predicate);
  const draft = (object: string, as = predicate): FactDraft => ({ subject: USER, predicate: as, predicateRaw: line[1].trim(), object, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.75 });
  if (objectClass === 'money') return extractObjects(value, { objectClass, predicate, multi: false }).slice(0, 1).map((object) => draft(object));
  // "Height 1.68m", "Age 52; b. Lahore", "Birthday: December 9": a literal with a number is the first value as written.
  const first = value.split(/\s*[,;(]\s*/)[0].trim();
  if (isMeasure(predicate) && /\d/.test(first)) return [draft(first)];
  const values = removeMentions(value, findDates(value, referenceTime, true))
    .replace(/\([^)]*\)/g, ' ')
    .replace(/[.!]+\s*$/, '')
    .replace(/\s+/g, ' ');
  const drafts: FactDraft[] = [];
  for (const item of values.split(/\s*(?:[,;+]|\s&\s|\band\b|\bplus\b)\s*/i)) {
    const text = item.replace(/^(?:some|a bit of|a|an|the)\s+/i, '').trim();
    if (!text || isClause(text) || /^[\d\s.,~$£€-]+$/.test(text)) continue;
    const object = extractObjects(text, { objectClass, predicate, multi: false })[0];
    if (!object) continue;
    // "Dx: cow's milk allergy": an allergy names what the subject is allergic to.
    const allergen = predicate === 'has_condition' ? /^(.+?)\s+allergy$/i.exec(object) : null;
    drafts.push(allergen ? draft(allergen[1], 'allergic_to') : draft(object));
    if (isSingleValued(predicate)) break;
  }
  return drafts;
}
