import { EX_RELATIONS, RELATIONS } from './lexicon.js';
import { isVerbForm, readVerb } from './inflection.js';

/**
 * People named through their relation to the user anywhere in a sentence, not only as its subject:
 * "remind me my wife Grace's birthday is ...", "going to the cinema with my friend Jonas",
 * "dad (Michael) is in hospital", "- son: Diego (7)", "Ben ..., he's my husband". The relation
 * word decides the predicate (lexicon RELATIONS); the name must be capitalised.
 */

export interface MentionedRelative {
  predicate: string;
  name: string;
  negated: boolean;
  /** The words as written, e.g. "my wife". */
  raw: string;
}

const RELATION_WORDS = [...Object.keys(RELATIONS), ...Object.keys(EX_RELATIONS), 'bestie'].sort((a, b) => b.length - a.length);
const eitherCase = (w: string) => `[${w[0]}${w[0].toUpperCase()}]${w.slice(1).replace(/[-]/g, '[- ]?')}`;
const RELATION = `(?:${RELATION_WORDS.map(eitherCase).join('|')})`;
const NAME = String.raw`([A-Z][\p{Ll}'’-]+(?:\s+[A-Z][\p{Ll}'’-]+)?)`;
const ADJECTIVE = String.raw`(?:(?:new|old|dear|lovely|amazing|beautiful|wonderful|late|little|big|eldest|youngest|oldest|best|other|younger|older|former|work)\s+)*`;

const PATTERNS: RegExp[] = [
  // "my wife Grace", "with my friend Jonas", "our son, Diego,"
  new RegExp(String.raw`\b(?:[Mm]y|[Oo]ur)\s+${ADJECTIVE}(${RELATION})\s*,?\s+${NAME}`, 'gu'),
  // "dad (Michael)", "my brother (Tom)"
  new RegExp(String.raw`(?:^|\b(?:[Mm]y|[Oo]ur)\s+|[\s,(])(${RELATION})\s*\(\s*${NAME}\s*[,)]`, 'gu'),
  // "- son: Diego (7)", "wife: Carmen"
  new RegExp(String.raw`^\s*(?:[-*•]\s*)?(${RELATION})\s*:\s*${NAME}`, 'gu'),
];
/** Notes leave out "my": "custody of son Caleb (12)", "one daughter, Zoe", "issue with coworker Deshawn". */
const BARE = new RegExp(String.raw`(?<=^|[\s,;:(])(${RELATION_WORDS.map((w) => w.replace(/[-]/g, '[- ]?')).join('|')})\s*,?\s+${NAME}`, 'gu');
/**
 * The word before a bare relation noun must not make it part of someone else's noun phrase: a possessive
 * ("Sabine's son", "his girlfriend"), an article or a modifier ("the hiring manager", "my desk buddy", "his new partner").
 * Prepositions, conjunctions, finite verbs and counts may stand there ("with coworker", "lent brother", "one daughter").
 */
const OPENS_BARE = /^(?:|of|with|to|for|from|and|or|by|about|one|two|incl|including|via|plus|also|w\/)$/;
const BARE_WORDS = new Set(RELATION_WORDS.map((w) => w.split(/[\s-]/)[0]));
const mayNameBareRelative = (sentence: string) => sentence.toLowerCase().split(/[^a-z]+/).some((w) => BARE_WORDS.has(w));

function startsBareRelation(before: string): boolean {
  const previous = /([\p{L}'’/]+)[\s,;:(]*$/u.exec(before)?.[1]?.toLowerCase() ?? '';
  // A past or third-person verb ("lent brother Sean"), not a base or -ing form that may be a modifier ("work wife", "hiring manager").
  const finiteVerb = readVerb(previous).some((r) => r.form === 'past' || r.form === 'third');
  return OPENS_BARE.test(previous) || finiteVerb || (previous !== '' && /[,;:(]\s*$/.test(before) && !/['’]s$/.test(previous));
}
/** "Ben's birthday ..., he's my husband", "Tom is my brother", "Sam is no longer my flatmate". */
const IS_MY = new RegExp(String.raw`\b${NAME}(?:'s|\s+is)\s+(?:also\s+)?(no\s+longer\s+|not\s+)?(?:[Mm]y|[Oo]ur)\s+${ADJECTIVE}(${RELATION})\b`, 'gu');
/** "my roommates are Dev and Sam", "our kids, Ana, Leo and Mia": one relative per name. */
const PLURAL = new RegExp(String.raw`\b(?:[Mm]y|[Oo]ur)\s+${ADJECTIVE}(${RELATION})s\s*(?:are|,|:)?\s+(${NAME.slice(1, -1)}(?:\s*,\s*${NAME.slice(1, -1)})*\s+(?:and|&)\s+${NAME.slice(1, -1)})`, 'gu');

/** Relations named by a noun or an unnamed person: "the divorce from Mark", "been seeing someone new, Leo". */
const NOMINAL: [RegExp, string][] = [
  [new RegExp(String.raw`(?:^|\b(?:[Mm]y|[Tt]he|[Oo]ur)\s+)[Dd]ivorce\s+(?:from|with)\s+${NAME}`, 'gu'), 'divorced_from'],
  [new RegExp(String.raw`\b(?:seeing|dating|going out with)\s+(?:someone|somebody|a\s+(?:guy|girl|man|woman|lad|lass|bloke))(?:\s+new)?\s*,?\s+(?:called\s+|named\s+)?${NAME}`, 'gu'), 'partner'],
];

const NOT_NAMES = /^(?:And|But|So|Or|The|This|That|He|She|They|We|It|His|Her|Their|My|Our|I|Mum|Mom|Dad|Is|Was|Has|Who|When|Then|Mr|Mrs|Ms|Miss|Dr|Prof|Today|Tomorrow|Yesterday|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December)$/;

function relationFor(word: string): { predicate: string; negated: boolean } | undefined {
  const key = word.toLowerCase().replace(/\s+/g, ' ');
  const ex = EX_RELATIONS[key] ?? EX_RELATIONS[key.replace(' ', '-')];
  if (ex) return { ...ex };
  const rel = RELATIONS[key] ?? RELATIONS[key.replace(' ', '-')];
  return rel ? { predicate: rel.predicate, negated: false } : undefined;
}

function cleanName(name: string): string | undefined {
  const words = name.replace(/['’]s$/, '').split(/\s+/);
  // "my wife Grace Lives ...": a trailing verb is not part of the name.
  while (words.length > 1 && isVerbForm(words[words.length - 1].toLowerCase())) words.pop();
  if (words.length === 0 || NOT_NAMES.test(words[0])) return undefined;
  if (words.length === 1 && isVerbForm(words[0].toLowerCase()) && !/^[A-Z][a-z]+$/.test(words[0])) return undefined;
  return words.join(' ');
}

export function mentionedRelatives(sentence: string): MentionedRelative[] {
  const out: MentionedRelative[] = [];
  const add = (word: string, rawName: string, raw: string) => {
    // "my work wife Jess" is a colleague; "my old colleague Tariq", "my former flatmate" no longer are.
    const rel = /\bwork\s+(?:wife|husband|bestie|friend|mate|buddy|bff)\b/i.test(raw) ? { predicate: 'has_colleague', negated: false } : relationFor(word);
    if (rel && /\b(?:old|former|ex)\s+/i.test(raw) && /^has_(?:colleague|manager|roommate)$/.test(rel.predicate)) rel.negated = true;
    const name = cleanName(rawName);
    if (!rel || !name || out.some((r) => r.name === name && r.predicate === rel.predicate)) return;
    out.push({ predicate: rel.predicate, name, negated: rel.negated, raw });
  };
  for (const pattern of PATTERNS) {
    for (const m of sentence.matchAll(pattern)) add(m[1], m[2], m[0].trim());
  }
  // "User and wife Denise separated": a partner named while the partnership ends is not a current one.
  const ending = /\b(?:separat\w*|divorc\w*|broke\s+up|split\s+up)\b/i.test(sentence);
  for (const m of mayNameBareRelative(sentence) ? sentence.matchAll(BARE) : []) {
    if (!startsBareRelation(sentence.slice(0, m.index)) || (ending && /^(?:married_to|partner)$/.test(relationFor(m[1])?.predicate ?? ''))) continue;
    add(m[1], m[2], m[0].trim());
  }
  for (const m of sentence.matchAll(IS_MY)) {
    add(m[3], m[1], m[0].trim());
    if (m[2]) for (const r of out) if (r.raw === m[0].trim()) r.negated = true;
  }
  for (const m of sentence.matchAll(PLURAL)) for (const name of m[2].split(/\s*,\s*|\s+(?:and|&)\s+/)) add(m[1], name, m[0].trim());
  for (const [pattern, predicate] of NOMINAL) {
    for (const m of sentence.matchAll(pattern)) {
      const name = cleanName(m[1]);
      if (!name || out.some((r) => r.name === name && r.predicate === predicate)) continue;
      out.push({ predicate, name, negated: false, raw: m[0].trim() });
      if (predicate === 'divorced_from') out.push({ predicate: 'married_to', name, negated: true, raw: m[0].trim() });
    }
  }
  return out;
}
