import type { FactDraft } from './draft.js';
import { PETS, RELATIONS } from './lexicon.js';
import { USER } from './subjects.js';

/**
 * Pets are stored by kind ("beagle"), but people talk about them by name later: "Biscuit died on
 * Tuesday", "Lost Meg in the winter". The name rides along in the object, in parentheses
 * ("beagle (Biscuit)"), which comparisons ignore (normalizeObject) and a denial by name matches
 * (rule judge, namesSameThing); a loss told by name denies the pet of that name.
 */

const NAME = String.raw`(\p{Lu}[\p{Ll}'’-]+)`;
const NOT_NAMES = new Set(['I', 'We', 'He', 'She', 'They', 'It', 'My', 'Our', 'The', 'This', 'That', 'And', 'But', 'So', 'Then', 'Just', 'Sadly', 'Today', 'Yesterday', 'Mum', 'Mom', 'Dad', 'Grandma', 'Grandpa', 'Granny', 'Nan', 'Nana', 'Grandad']);
const isName = (word: string) => !NOT_NAMES.has(word) && !RELATIONS[word.toLowerCase()] && !PETS.has(word.toLowerCase());

/** The name a sentence gives its one pet of this kind: "a beagle called Biscuit", "an old collie, Meg", "Dave the tortoise". */
export function petNameIn(sentence: string, kind: string): string | undefined {
  // The kind in either case at its start ("Beagle", "beagle"); the name must be capitalised.
  const k = `[${kind[0].toUpperCase()}${kind[0].toLowerCase()}]${kind.slice(1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  // "two rabbits, Bean and Toast": several names belong to several pets, none to the one fact.
  const one = String.raw`(?![\p{L}'’-])(?!\s*(?:,|and|&)\s*\p{Lu})`;
  const patterns = [
    new RegExp(String.raw`\b(?:called|named)\s+${NAME}${one}`, 'u'),
    new RegExp(String.raw`\b${k}s?\s*(?:,\s*|\(\s*|\s+)${NAME}${one}`, 'u'),
    new RegExp(String.raw`${NAME}\s+the\s+${k}\b`, 'u'),
  ];
  for (const pattern of patterns) {
    const name = pattern.exec(sentence)?.[1];
    if (name && isName(name)) return name;
  }
  return undefined;
}

/** The object with the pet's name: "beagle (Biscuit)". */
export const withPetName = (kind: string, name: string) => `${kind} (${name})`;

const LOST = new RegExp(String.raw`^(?:(?:I|[Ww]e)\s+(?:have\s+|had\s+to\s+)?)?(?:sadly\s+|just\s+|finally\s+)?(?:lost|put\s+down|say\s+goodbye\s+to|said\s+goodbye\s+to)\s+${NAME}`, 'u');
const DIED = new RegExp(String.raw`^${NAME}\s+(?:has\s+|sadly\s+|just\s+|finally\s+)*(?:died|passed\s+away|was\s+put\s+down|was\s+put\s+to\s+sleep|had\s+to\s+be\s+put\s+down|crossed\s+the\s+rainbow\s+bridge)\b`, 'u');

/** "Biscuit died on Tuesday", "Lost Meg in the winter": the pet of that name is gone. */
export function petLossByName(sentence: string): FactDraft[] {
  const s = sentence.trim().replace(/^(?:Lost|Sadly|Finally|Just)\b/, (w) => w.toLowerCase());
  const name = (LOST.exec(s) ?? DIED.exec(s))?.[1];
  if (!name || !isName(name)) return [];
  return [{ subject: USER, predicate: 'has_pet', predicateRaw: 'lost', object: name, negated: true, tense: 'current', validFrom: null, validTo: null, confidence: 0.7 }];
}
