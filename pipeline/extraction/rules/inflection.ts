import { PREDICATES } from '../taxonomy.js';

/**
 * English verb forms for the verbs the extractor cares about: every verb in the
 * taxonomy's surface forms plus common verbs that start clauses. Built once.
 */

export type VerbForm = 'base' | 'third' | 'past' | 'participle' | 'gerund';

export interface VerbReading {
  lemma: string;
  form: VerbForm;
}

const IRREGULAR: Record<string, [past: string, participle: string]> = {
  be: ['was', 'been'], have: ['had', 'had'], do: ['did', 'done'], go: ['went', 'gone'], get: ['got', 'gotten'],
  buy: ['bought', 'bought'], sell: ['sold', 'sold'], make: ['made', 'made'], take: ['took', 'taken'], eat: ['ate', 'eaten'],
  drink: ['drank', 'drunk'], speak: ['spoke', 'spoken'], grow: ['grew', 'grown'], leave: ['left', 'left'], become: ['became', 'become'],
  begin: ['began', 'begun'], drive: ['drove', 'driven'], fly: ['flew', 'flown'], lose: ['lost', 'lost'], know: ['knew', 'known'],
  give: ['gave', 'given'], come: ['came', 'come'], run: ['ran', 'run'], swim: ['swam', 'swum'], teach: ['taught', 'taught'],
  hold: ['held', 'held'], pay: ['paid', 'paid'], put: ['put', 'put'], quit: ['quit', 'quit'], split: ['split', 'split'],
  set: ['set', 'set'], feel: ['felt', 'felt'], find: ['found', 'found'], keep: ['kept', 'kept'], meet: ['met', 'met'],
  see: ['saw', 'seen'], think: ['thought', 'thought'], win: ['won', 'won'], break: ['broke', 'broken'], choose: ['chose', 'chosen'],
  read: ['read', 'read'], write: ['wrote', 'written'], bring: ['brought', 'brought'], spend: ['spent', 'spent'], send: ['sent', 'sent'],
  fall: ['fell', 'fallen'], stand: ['stood', 'stood'], catch: ['caught', 'caught'], beat: ['beat', 'beaten'], hear: ['heard', 'heard'],
  say: ['said', 'said'], tell: ['told', 'told'], sit: ['sat', 'sat'], wake: ['woke', 'woken'], wear: ['wore', 'worn'],
  forget: ['forgot', 'forgotten'], sleep: ['slept', 'slept'], build: ['built', 'built'], cut: ['cut', 'cut'], hurt: ['hurt', 'hurt'],
  let: ['let', 'let'], ride: ['rode', 'ridden'], sing: ['sang', 'sung'], learn: ['learned', 'learned'], understand: ['understood', 'understood'],
  lead: ['led', 'led'], feed: ['fed', 'fed'], bear: ['bore', 'born'], lend: ['lent', 'lent'], deal: ['dealt', 'dealt'], mean: ['meant', 'meant'],
};
/** Extra accepted spellings: British doubling, "learnt", "got" as participle. */
const EXTRA_FORMS: Record<string, VerbReading[]> = {
  learnt: [{ lemma: 'learn', form: 'past' }, { lemma: 'learn', form: 'participle' }],
  travelled: [{ lemma: 'travel', form: 'past' }, { lemma: 'travel', form: 'participle' }],
  travelling: [{ lemma: 'travel', form: 'gerund' }],
  cancelled: [{ lemma: 'cancel', form: 'past' }, { lemma: 'cancel', form: 'participle' }],
  cancelling: [{ lemma: 'cancel', form: 'gerund' }],
  got: [{ lemma: 'get', form: 'participle' }],
  dreamt: [{ lemma: 'dream', form: 'past' }],
  founded: [{ lemma: 'found', form: 'past' }, { lemma: 'found', form: 'participle' }],
  born: [{ lemma: 'bear', form: 'participle' }],
};
const DOUBLES_FINAL_CONSONANT = new Set(
  'stop plan prefer shop jog drop swim run get sit quit split admit commit ship rob chat hug skip grab begin forget set cut put win regret refer occur step hop nap rub tap wrap plug dig beg fit hit let shut spot knit slip trip stir star drum date'
    .split(' ')
    .filter((w) => w !== 'date'),
);
/** Verbs outside the taxonomy that still start clauses or follow auxiliaries. */
const COMMON_VERBS =
  'be have do go get make take start stop try need want buy sell move visit see meet learn study work live eat drink play watch read write cook run come call tell ask help ' +
  'quit leave join marry adopt travel fly drive change switch open close finish begin become retire apply spend save pay rent build fix sleep wake stay look find keep let put ' +
  'think feel know say give bring use celebrate attend turn check book plan relocate hope wish wonder guess believe suppose consider need love like hate prefer enjoy own ' +
  'speak teach train run swim dance sing paint draw bake hike climb ski surf cycle walk jog garden knit sew fish hunt shop volunteer graduate divorce date miss remember ' +
  'forget lose win break hurt die pass hold earn make invest subscribe cancel sign unsubscribe smoke vape weigh follow take suffer recover develop catch beat struggle deal ' +
  'support root code program major attend found accept resign settle emigrate reside grow raise bear diagnose hire fire promote lay split break adore detest loathe dislike ' +
  'purchase inherit rehome rescue give process seem appear sound mean want decide choose agree disagree realize realise notice happen share post text email message reply';

const READINGS = new Map<string, VerbReading[]>();

function addReading(word: string, reading: VerbReading) {
  const list = READINGS.get(word) ?? [];
  if (!list.some((r) => r.lemma === reading.lemma && r.form === reading.form)) list.push(reading);
  READINGS.set(word, list);
}

function thirdPerson(lemma: string): string {
  if (lemma === 'have') return 'has';
  if (lemma === 'be') return 'is';
  if (/(s|sh|ch|x|z|o)$/.test(lemma)) return `${lemma}es`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ies`;
  return `${lemma}s`;
}

function regularPast(lemma: string): string {
  if (lemma.endsWith('e')) return `${lemma}d`;
  if (/[^aeiou]y$/.test(lemma)) return `${lemma.slice(0, -1)}ied`;
  if (DOUBLES_FINAL_CONSONANT.has(lemma)) return `${lemma}${lemma.slice(-1)}ed`;
  return `${lemma}ed`;
}

function gerund(lemma: string): string {
  if (lemma === 'be') return 'being';
  if (lemma.endsWith('ie')) return `${lemma.slice(0, -2)}ying`;
  if (lemma.endsWith('e') && !/(ee|ye|oe)$/.test(lemma)) return `${lemma.slice(0, -1)}ing`;
  if (DOUBLES_FINAL_CONSONANT.has(lemma)) return `${lemma}${lemma.slice(-1)}ing`;
  return `${lemma}ing`;
}

export function toGerund(lemma: string): string {
  return gerund(lemma);
}

const LEMMAS = new Set<string>([
  ...COMMON_VERBS.split(/\s+/),
  ...PREDICATES.flatMap((p) => p.surfaces.map((s) => s.phrase.split(' ')[0])),
]);

for (const lemma of LEMMAS) {
  addReading(lemma, { lemma, form: 'base' });
  addReading(thirdPerson(lemma), { lemma, form: 'third' });
  const [past, participle] = IRREGULAR[lemma] ?? [regularPast(lemma), regularPast(lemma)];
  addReading(past, { lemma, form: 'past' });
  addReading(participle, { lemma, form: 'participle' });
  addReading(gerund(lemma), { lemma, form: 'gerund' });
}
for (const [word, readings] of Object.entries(EXTRA_FORMS)) for (const r of readings) addReading(word, r);
for (const word of ['am', 'are', 'is']) addReading(word, { lemma: 'be', form: word === 'is' ? 'third' : 'base' });
addReading('were', { lemma: 'be', form: 'past' });
// "found" is read as the past of "find" only; "founded" is the verb "found".
READINGS.set('found', [{ lemma: 'find', form: 'past' }, { lemma: 'find', form: 'participle' }]);

/** Every verb reading of a lower-case word, e.g. "left" -> leave/past, leave/participle. */
export function readVerb(word: string): VerbReading[] {
  return READINGS.get(word.toLowerCase()) ?? [];
}

export function isVerbForm(word: string): boolean {
  return READINGS.has(word.toLowerCase());
}

export function isKnownLemma(word: string): boolean {
  return LEMMAS.has(word.toLowerCase());
}
