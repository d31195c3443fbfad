import nlp from 'compromise';
import type { FactDraft } from './draft.js';
import { USER } from './subjects.js';

/**
 * Children named together after a group word: "got three kids: Ella (12), Max (9) and little Rosie",
 * "Kids: Noor (9), Adam (6)", "the twins (Cara and Eve)", "two boys, Leo and Sam". "boys" and
 * "girls" say the relation; for "kids", "children" and "twins" the first name does when compromise
 * knows it as a female or male name; a name of unknown gender is left to the other rules (has_child).
 * Someone else's children ("her kids", "Tom's twins") are not the user's.
 */

const GROUP = /\b(kids|children|twins|boys|girls|sons|daughters)\b\s*(?:[:(,–-]|\bare\b|\bcalled\b|\bnamed\b)?\s*/giu;
const NAME = String.raw`\p{Lu}[\p{Ll}'’-]+`;
const NAME_LIST = new RegExp(String.raw`^(?:(?:little|baby|our|the)\s+)?(${NAME})(?:\s*\(\s*\d+[^)]*\))?((?:\s*(?:,|and|&)\s*(?:(?:little|baby)\s+)?${NAME}(?:\s*\(\s*\d+[^)]*\))?)+)`, 'u');
const SOMEONE_ELSES = /(?:\b(?:his|her|their|your)|\p{L}+['’]s)\s+(?:\w+\s+)?$/u;
const NOT_NAMES = /^(?:And|But|So|The|This|That|He|She|They|We|It|I|Mum|Mom|Dad|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Christmas|Easter)$/;

function relationOf(group: string, name: string): string | undefined {
  if (/^(?:boys|sons)$/i.test(group)) return 'has_son';
  if (/^(?:girls|daughters)$/i.test(group)) return 'has_daughter';
  const doc = nlp(name);
  if (doc.has('#FemaleName') && !doc.has('#MaleName')) return 'has_daughter';
  if (doc.has('#MaleName') && !doc.has('#FemaleName')) return 'has_son';
  return undefined;
}

const MENTIONS_GROUP = /kids|children|twins|boys|girls|sons|daughters/i;

export function namedChildren(sentence: string): FactDraft[] {
  if (!MENTIONS_GROUP.test(sentence)) return [];
  const drafts: FactDraft[] = [];
  for (const m of sentence.matchAll(GROUP)) {
    if (SOMEONE_ELSES.test(sentence.slice(0, m.index))) continue;
    const list = NAME_LIST.exec(sentence.slice(m.index + m[0].length));
    if (!list) continue;
    const names = [list[1], ...(list[2].match(new RegExp(NAME, 'gu')) ?? [])].filter((n) => !NOT_NAMES.test(n));
    if (names.length < 2) continue;
    for (const name of names) {
      const predicate = relationOf(m[1], name);
      if (predicate) drafts.push({ subject: USER, predicate, predicateRaw: m[1], object: name, negated: false, tense: 'current', validFrom: null, validTo: null, confidence: 0.75 });
    }
  }
  return drafts;
}
