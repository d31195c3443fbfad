import nlp from 'compromise';

/**
 * People, places and organisations named in a text, by compromise's tagger, as
 * `doc.people()`, `doc.places()` and `doc.organizations()` find them, at a
 * fraction of the cost:
 * - the tagger (nearly all of the cost) only sees the sentences that can name
 *   something (`triggerOf`); in chat, most sentences cannot;
 * - one walk over the tagged terms replaces the three match queries, which
 *   together cost about as much as tagging.
 * The named-entities test holds the result to compromise's own on tricky cases;
 * on the LoCoMo development turns and the extraction corpus (5,900 texts, also
 * lowercased) the two differ on one sentence ("in the fridge" is no place).
 */

export type NamedEntityType = 'person' | 'place' | 'organization';
export interface NamedEntity {
  name: string;
  type: NamedEntityType;
}

interface Term {
  text: string;
  pre: string;
  post: string;
  normal: string;
  tags: Set<string>;
}
interface CompromiseWorld {
  model: {
    two: { orgWords: Record<string, boolean>; placeWords: Record<string, boolean> };
    one: {
      lexicon: Record<string, string | string[]>;
      // Parent tags of each tag ("City" -> Noun, Singular, Place, ProperNoun).
      tagSet: Record<string, { parents?: string[] }>;
    };
  };
  methods: { one: { tokenize: { splitSentences(text: string, world: CompromiseWorld): string[] } } };
}

interface TaggableDoc {
  docs: Term[][];
  compute(hooks: string[]): void;
}
const compromise = nlp as unknown as { world(): CompromiseWorld; tokenize(text: string): TaggableDoc; hooks(): string[] };
const world = compromise.world();

/**
 * What `nlp(text)` runs, less the chunker (noun and verb phrases, which nothing here reads:
 * a sixth of the time); `nlp.tokenize` has run the first steps.
 */
const TAGGING = compromise.hooks().filter((hook) => !['contractions', 'alias', 'machine', 'chunks'].includes(hook));
function tagged(text: string): Term[][] {
  const doc = compromise.tokenize(text);
  doc.compute(TAGGING);
  return doc.docs;
}
const NAME_TAGS = new Set(['Person', 'Place', 'Organization', 'ProperNoun', 'Honorific', 'Address', 'Acronym']);

const isNameTag = (tag: string) => NAME_TAGS.has(tag) || (world.model.one.tagSet[tag]?.parents ?? []).some((p) => NAME_TAGS.has(p));
const tagsOf = (word: string): string[] => {
  const tags = world.model.one.lexicon[word];
  return tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
};

/** Lowercase words compromise's lexicon knows as names ("john", "paris", "google"), and the rest of multi-word ones ("new" -> "york"). */
const NAME_WORDS = new Set<string>();
const NAME_PHRASES = new Map<string, string[][]>();
for (const [entry, tags] of Object.entries(world.model.one.lexicon)) {
  if (!(Array.isArray(tags) ? tags : [tags]).some(isNameTag)) continue;
  const [first, ...rest] = entry.split(' ');
  if (rest.length === 0) NAME_WORDS.add(first);
  else NAME_PHRASES.set(first, [...(NAME_PHRASES.get(first) ?? []), rest]);
}
/** Words that make an organisation or place of the capitalised word before them ("Okonkwo ltd", "Bexley park"). */
const NAME_HEADS = new Set([...Object.keys(world.model.two.orgWords), ...Object.keys(world.model.two.placeWords)]);

/** Words as compromise's terms see them: hyphenated words are two terms, "&" joins organisation names. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.]*|&/gu;
const SELF = /^I(?:['’](?:m|ve|d|ll))?$/;
/** "You're" -> "you", "Don't" -> "do", "Can't" -> "can". */
const withoutContraction = (word: string) => word.replace(/^(ca|wo)n['’]t$/, (_m, stem: string) => (stem === 'ca' ? 'can' : 'will')).replace(/n['’]t$|['’](?:re|ve|ll|d|m|s)$/, '');

/**
 * The word that may make compromise find a name in this sentence, or undefined when it
 * certainly finds none: a capitalised word other than "I" that is not just the sentence
 * start, a lowercase name or multi-word name from the lexicon, "&", or an organisation or
 * place word right after a capitalised sentence start. A sentence-initial capital on a word the
 * lexicon does not know as a name ("The", "Congrats", "Will") makes no name by itself.
 */
export function triggerOf(sentence: string): string | undefined {
  const words = [...sentence.matchAll(WORD)].map((m) => m[0]);
  const lowers = words.map((w) => w.toLowerCase().replace(/\.+$/, ''));
  let capitalStart = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const lower = lowers[i];
    if (word === '&') return word;
    if (word !== lower && word !== `${lower}.`) {
      if (SELF.test(word)) continue;
      if (i > 0 || tagsOf(withoutContraction(lower).replace(/['’]s$/, '')).some(isNameTag)) return word;
      capitalStart = true;
      continue;
    }
    const base = lower.replace(/['’]s$/, '');
    if (NAME_WORDS.has(base)) return word;
    if (i === 1 && capitalStart && NAME_HEADS.has(base)) return word;
    for (const rest of NAME_PHRASES.get(lower) ?? []) {
      if (rest.every((w, k) => lowers[i + 1 + k]?.replace(/['’]s$/, '') === w)) return `${word} ${rest.join(' ')}`;
    }
  }
  return undefined;
}

/** True when compromise may find a name in this sentence; false only when it certainly finds none. */
export function mayName(sentence: string): boolean {
  return triggerOf(sentence) !== undefined;
}

const textOf = (terms: Term[]) => terms.reduce((s, t) => s + t.pre + t.text + t.post, '').trim();
const hasComma = (t: Term) => t.post.includes(',');

/** Runs of consecutive terms that pass `inRun`, cut after any term `cutAfter` accepts. */
function runs(terms: Term[], inRun: (t: Term) => boolean, cutAfter: (t: Term, i: number) => boolean): Term[][] {
  const out: Term[][] = [];
  let run: Term[] = [];
  terms.forEach((term, i) => {
    if (!inRun(term)) {
      if (run.length) out.push(run);
      run = [];
      return;
    }
    run.push(term);
    if (cutAfter(term, i)) {
      out.push(run);
      run = [];
    }
  });
  if (run.length) out.push(run);
  return out;
}

/** `doc.people()`: "#Honorific+? #Person+" within comma-separated parts, cut after a possessive other than his/her. */
function people(sentence: Term[]): string[] {
  const isPossessive = (t: Term) => t.tags.has('Possessive') && t.normal !== 'his' && t.normal !== 'her';
  // Honorifics are persons in compromise's tag set, so "#Honorific+? #Person+" is a run of persons.
  return runs(sentence, (t) => t.tags.has('Person'), (t) => hasComma(t) || isPossessive(t)).map(textOf);
}

/** `doc.places()`: runs of places and addresses, cut at commas except "Paris, France". */
function places(sentence: Term[]): string[] {
  const isPlace = (t: Term) => t.tags.has('Place') || t.tags.has('Address');
  const keepsComma = (t: Term, i: number) => {
    if (/^(?:asia|africa|europe|america)$/.test(t.normal)) return false;
    const next = sentence[i + 1];
    return (t.tags.has('City') || t.tags.has('Region') || t.tags.has('ProperNoun')) && next !== undefined && (next.tags.has('Country') || next.tags.has('Region'));
  };
  return runs(sentence, isPlace, (t, i) => hasComma(t) && !keepsComma(t, i)).map(textOf);
}

/** `doc.organizations()`: runs of organisation terms. */
function organizations(sentence: Term[]): string[] {
  return runs(sentence, (t) => t.tags.has('Organization'), () => false).map(textOf);
}

/** Every person, then every place, then every organisation named in `text`, in text order, repeats included. */
export function findNamedEntities(text: string): NamedEntity[] {
  const candidates = world.methods.one.tokenize.splitSentences(text, world).filter(mayName);
  if (candidates.length === 0) return [];
  const sentences = tagged(candidates.join(''));
  const found = (type: NamedEntityType, find: (s: Term[]) => string[]) =>
    sentences.flatMap(find).filter((name) => name.length > 0).map((name) => ({ name, type }));
  return [...found('person', people), ...found('place', places), ...found('organization', organizations)];
}
