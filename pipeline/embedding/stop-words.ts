/**
 * Words that carry no topic: they get zero weight in the sentence vector.
 *
 * Beyond the usual English function words and light verbs this includes question scaffolding
 * ("what", "tell", "kind of") and the words callers use for the memory owner
 * ("user", "they"): queries are usually phrased in the third person about the
 * user while memories are written in the first person, so those words never
 * help to find a memory and only pull all queries towards each other.
 */
const FUNCTION_WORDS = `
a about above after again against all am an and any are aren as at be because been before being below
between both but by can cannot could couldn did didn do does doesn doing down during each few for
from further had hadn has hasn have haven having he her here hers herself him himself his how i if in
into is isn it its itself just let ll me mightn more most mustn my myself no nor not now of off on once
only or other ought our ours ourselves out over own re s same shan she should shouldn so some such t than
that the their theirs them themselves then there these they this those through to too under until up
upon us ve very was wasn we were weren what when where which while who whom why will with would
wouldn you your yours yourself yourselves d m o y ain also ever yet
`;

// Light verbs, quantifiers and adverbs that fit a statement on any topic. Words that are also
// names or months ("may", "don", "won") stay out: they matter in memories.
const LIGHT_WORDS = `
still much many lot lots used use going coming come now right like want really well even back way make
made take took new old good bad big little day days time every anyone everyone everything since ago
around maybe might must shall need needs gets getting go goes went gone
`;

const QUESTION_SCAFFOLDING = `
user users user's person someone somebody anything something tell know kind sort type thing things
get got does did please remember recall mention mentioned said say says
`;

export const STOP_WORDS: ReadonlySet<string> = new Set(
  `${FUNCTION_WORDS} ${LIGHT_WORDS} ${QUESTION_SCAFFOLDING}`.split(/\s+/).filter(Boolean),
);

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
