import type { ExtractedFact, Tense } from '../../types.js';
import { findDates, startOfDayUTC } from '../rules/dates.js';
import { ANY_OBJECT, familyOf, lookupPredicate } from '../taxonomy.js';
import { relationBefore } from './relation-words.js';
import { subjectFromSpan } from './subjects.js';
import type { TaggedWord } from './tagger.js';
import { endsSentence } from './words.js';

/** A run of words with one B-/I- label: an object, a subject (SUBJ) or a relation phrase (REL). */
export interface Span {
  label: string;
  first: number;
  last: number;
  start: number;
  end: number;
  text: string;
  sentence: number;
  probability: number;
  heads: Record<string, number[]>;
}

const OTHER_CLASS = 'other';
/**
 * A span whose words' tag probability averages below this gives no fact. Chosen on the development part
 * (highest F1 of EXTRACTOR=model over 0.5, 0.6 and 0.7; the tie of 0.5 and 0.6 goes to the more precise).
 */
const MIN_PROBABILITY = 0.6;
const TENSES: Tense[] = ['current', 'past', 'planned'];
/** Relation words that carry no meaning of their own in a predicate name ("I've been volunteering at" → volunteering_at). */
const FILLER = new Set(['i', 'im', 'ive', 'm', 've', 's', 'am', 'is', 'are', 'was', 'were', 'be', 'been', 'have', 'has', 'had', 'also', 'still', 'now', 'really', 'just', 'the', 'a', 'an', 'my', 'he', 'she', 'they', 'we', 'user', 'client']);
/** Predicates whose object the pipeline keeps in a fixed shape. */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const PEOPLE_SUBJECT_LABELS = new Set(['has_mother', 'has_father', 'has_sister', 'has_brother', 'has_son', 'has_daughter', 'has_child', 'has_relative', 'has_friend', 'has_colleague', 'has_manager', 'has_roommate', 'partner', 'married_to']);

export function spansOf(words: readonly TaggedWord[], text: string): Span[] {
  const spans: Span[] = [];
  let sentence = 0;
  let open: { label: string; first: number } | null = null;
  const close = (last: number) => {
    if (!open) return;
    const run = words.slice(open.first, last + 1);
    const heads: Record<string, number[]> = {};
    for (const name of Object.keys(run[0].heads)) {
      heads[name] = run[0].heads[name].map((_, k) => run.reduce((sum, w) => sum + w.heads[name][k], 0) / run.length);
    }
    spans.push({
      label: open.label,
      first: open.first,
      last,
      start: words[open.first].start,
      end: words[last].end,
      text: text.slice(words[open.first].start, words[last].end),
      sentence: sentenceOf[open.first],
      probability: run.reduce((sum, w) => sum + w.tagProbability, 0) / run.length,
      heads,
    });
    open = null;
  };
  const sentenceOf = words.map((_, i) => {
    const s = sentence;
    if (endsSentence(words, text, i)) sentence++;
    return s;
  });
  words.forEach((word, i) => {
    const [prefix, label] = word.tag === 'O' ? ['O', ''] : [word.tag.slice(0, 1), word.tag.slice(2)];
    // An I- word continues whatever span is open (the model sometimes changes its mind about the label inside a
    // name: "Mazda MX-5"), and so does any tagged word glued to the previous one without a space ("MX-5").
    const glued = i > 0 && words[i - 1].end === word.start && prefix !== 'O';
    const continues = open !== null && (prefix === 'I' || glued) && sentenceOf[i] === sentenceOf[i - 1];
    if (!continues) close(i - 1);
    if (prefix !== 'O' && !continues) open = { label, first: i };
  });
  close(words.length - 1);
  return spans;
}

const argmax = (values: number[]) => values.reduce((best, v, i) => (v > values[best] ? i : best), 0);
const distance = (a: Span, b: Span) => (a.end <= b.start ? b.start - a.end : a.start - b.end);

/** The subject span nearest to an object in its sentence, preferring one written before it. */
function linkedSubject(object: Span, spans: readonly Span[]): Span | undefined {
  const candidates = spans.filter((s) => s !== object && s.sentence === object.sentence && (s.label === 'SUBJ' || PEOPLE_SUBJECT_LABELS.has(s.label)));
  const before = candidates.filter((s) => s.end <= object.start).sort((a, b) => distance(a, object) - distance(b, object));
  if (before.length > 0) return before[0];
  const anywhere = spans
    .filter((s) => s !== object && (s.label === 'SUBJ' || PEOPLE_SUBJECT_LABELS.has(s.label)) && s.start < object.start)
    .sort((a, b) => distance(a, object) - distance(b, object));
  return anywhere[0] ?? candidates.sort((a, b) => distance(a, object) - distance(b, object))[0];
}

/** For the catch-all class: a snake_case predicate from the relation words before the object ("volunteer at"). */
function otherPredicate(object: Span, spans: readonly Span[]): { name: string; raw: string } | undefined {
  const rel = spans.filter((s) => s.label === 'REL' && s.sentence === object.sentence && s.end <= object.start).sort((a, b) => distance(a, object) - distance(b, object))[0];
  if (!rel) return undefined;
  const words = rel.text
    .toLowerCase()
    .replace(/[’']/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w && !FILLER.has(w));
  if (words.length === 0 || words.length > 4) return undefined;
  return { name: words.join('_'), raw: rel.text };
}

/** The words just before an object, as the relation was written ("moved to"). */
function rawPredicate(object: Span, words: readonly TaggedWord[]): string {
  const from = Math.max(0, object.first - 3);
  const before = words.slice(from, object.first).filter((w) => /\p{L}/u.test(w.text));
  return before.map((w) => w.text).join(' ');
}

function shapedObject(predicate: string, text: string, referenceTime: Date): string | undefined {
  const trimmed = text.replace(/^[\s"'“”‘’(]+|[\s"'“”‘’),.:;!?]+$/g, '');
  if (!trimmed) return undefined;
  if (predicate === 'age') return /\d{1,3}/.exec(trimmed)?.[0];
  if (predicate === 'birth_year') return /\b(1[89]|20)\d{2}\b/.exec(trimmed)?.[0];
  if (predicate === 'birthday' || predicate === 'anniversary') {
    const [mention] = findDates(trimmed, referenceTime, true);
    if (!mention) return trimmed;
    return `${MONTHS[mention.date.getUTCMonth()]} ${mention.date.getUTCDate()}`;
  }
  return trimmed;
}

interface Dating {
  validFrom: Date | null;
  validTo?: Date | null;
}

/** The stated date nearest to the object in its sentence, read with the role its words give it. */
function datingOf(object: Span, sentenceText: string, sentenceStart: number, tense: Tense, referenceTime: Date): Dating {
  const mentions = findDates(sentenceText, referenceTime, tense === 'planned');
  if (mentions.length === 0) return { validFrom: null };
  const at = object.start - sentenceStart;
  const nearest = mentions.sort((a, b) => Math.abs(a.start - at) - Math.abs(b.start - at))[0];
  const date = startOfDayUTC(nearest.date);
  if (tense === 'planned') return { validFrom: date.getTime() > referenceTime.getTime() ? date : null };
  if (nearest.role === 'end') return tense === 'past' ? { validFrom: null, validTo: date } : { validFrom: null };
  if (nearest.until) return { validFrom: date, validTo: startOfDayUTC(nearest.until) };
  return { validFrom: date.getTime() <= referenceTime.getTime() ? date : null };
}

/** The character range of the sentence each word is in. */
function sentenceRanges(words: readonly TaggedWord[], text: string): { start: number; end: number }[] {
  const ranges = new Array<{ start: number; end: number }>(words.length);
  let first = 0;
  words.forEach((_, i) => {
    if (i === words.length - 1 || endsSentence(words, text, i)) {
      const range = { start: words[first].start, end: words[i].end };
      for (let k = first; k <= i; k++) ranges[k] = range;
      first = i + 1;
    }
  });
  return ranges;
}

interface Context {
  words: readonly TaggedWord[];
  text: string;
  referenceTime: Date;
  spans: readonly Span[];
  sentences: readonly { start: number; end: number }[];
}

/** The fact an object span states, or nothing when the span is unsure, its subject unknown or its object empty. */
function factOfObject(span: Span, { words, text, referenceTime, spans, sentences }: Context): ExtractedFact | undefined {
  if (span.probability < MIN_PROBABILITY) return undefined;
  let negated = span.heads.negated[1] > 0.5;
  const tense = TENSES[argmax(span.heads.tense)] ?? 'current';
  let predicate = span.label;
  if (PEOPLE_SUBJECT_LABELS.has(predicate)) {
    const relation = relationBefore(text, span.start);
    if (relation === 'acquaintance') return undefined;
    if (relation) ({ predicate, negated } = relation);
  }
  let predicateRaw = rawPredicate(span, words);
  if (predicate === OTHER_CLASS) {
    const other = otherPredicate(span, spans);
    if (!other) return undefined;
    predicate = other.name;
    predicateRaw = other.raw;
  }
  let subject = 'user';
  let subjectType: ExtractedFact['subjectType'] = 'user';
  if (span.heads.subject[1] > 0.5) {
    const linked = linkedSubject(span, spans);
    const resolved = linked && subjectFromSpan(linked.text);
    if (!resolved) return undefined;
    ({ subject, subjectType } = resolved);
  }
  const anyObject = negated && span.heads.any_object[1] > 0.5;
  const object = anyObject ? ANY_OBJECT : shapedObject(predicate, span.text, referenceTime);
  if (!object) return undefined;
  const bounds = sentences[span.first];
  const dating = datingOf(span, text.slice(bounds.start, bounds.end), bounds.start, tense, referenceTime);
  return {
    subject,
    subjectType,
    predicate,
    predicateRaw,
    family: familyOf(predicate),
    object,
    objectIsLiteral: lookupPredicate(predicate)?.objectKind === 'literal',
    negated,
    tense,
    validFrom: dating.validFrom,
    ...(dating.validTo !== undefined ? { validTo: dating.validTo } : {}),
    confidence: Math.round(0.95 * span.probability * 100) / 100,
  };
}

/** "my brother Declan" with Declan tagged only as a subject still says the user has a brother Declan. */
function relationOfNamedSubject(span: Span, text: string): ExtractedFact | undefined {
  if (!/^\p{Lu}/u.test(span.text)) return undefined;
  const relation = relationBefore(text, span.start);
  const person = subjectFromSpan(span.text);
  if (!relation || relation === 'acquaintance' || !person || person.subject.startsWith("user's")) return undefined;
  return {
    subject: 'user',
    subjectType: 'user',
    predicate: relation.predicate,
    predicateRaw: text.slice(Math.max(0, span.start - 20), span.start).trim(),
    family: familyOf(relation.predicate),
    object: person.subject,
    objectIsLiteral: false,
    negated: relation.negated,
    tense: 'current',
    validFrom: null,
    confidence: Math.round(0.9 * span.probability * 100) / 100,
  };
}

/** Turns one message's tagged words into facts, each (subject, predicate, object, negation) once. */
export function decodeFacts(words: readonly TaggedWord[], text: string, referenceTime: Date): ExtractedFact[] {
  const spans = spansOf(words, text);
  const context: Context = { words, text, referenceTime, spans, sentences: sentenceRanges(words, text) };
  const candidates = [
    ...spans.filter((s) => s.label !== 'SUBJ' && s.label !== 'REL').map((s) => factOfObject(s, context)),
    ...spans.filter((s) => s.label === 'SUBJ').map((s) => relationOfNamedSubject(s, text)),
  ];
  const seen = new Set<string>();
  return candidates.filter((fact): fact is ExtractedFact => {
    if (!fact) return false;
    const key = `${fact.subject}|${fact.predicate}|${fact.object.toLowerCase()}|${fact.negated}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
