/**
 * "like" and "love" that are not the verbs of a taste: a comparison ("rooibos at night, like an old lady",
 * "Brain like a sieve today"), a filler ("Like probably books"), or a letter's sign-off ("Love, Claire").
 * The clause parser would otherwise restore a dropped "I" and read `likes old lady` / `likes Claire`.
 * Only clauses without a stated subject are judged; "I like a challenge" is left alone.
 */
const COMPARISON = /^(?:just\s+|kind\s+of\s+|kinda\s+|sort\s+of\s+|more\s+|exactly\s+)?like\s+(?:a|an|some|my|your|his|her|their|our)\s/i;
const FILLER = /^like\s*(?:,|\s(?:probably|maybe|literally|totally|basically|honestly|actually|seriously|idk|you know|i mean|i guess|so|really)\b)/i;
const SIGN_OFF = /^(?:love|lots of love|much love|all my love|love you)\s*(?:,|$|\s+(?:x+|xo+)\s*$)/i;
/** "Brain like a sieve": a capitalised noun with a bare "like" (no agreement) is a verbless comparison. */
const NOUN_LIKE = /^(?!I\s)\p{Lu}\p{Ll}+\s+like\s/u;

export function isLikeButNotTaste(clause: string): boolean {
  const t = clause.trim();
  return COMPARISON.test(t) || FILLER.test(t) || SIGN_OFF.test(t) || NOUN_LIKE.test(t);
}
