/**
 * Chat phrasings of an update, rewritten into the plain statements the clause parser reads:
 *  - a leading interjection set off by punctuation: "Funny, I think ...", "quick update: ...", "Change of plan: ...";
 *  - a new favourite announced as a label: "ok new favourite food: ramen" -> "my favourite food is ramen";
 *  - a favourite with a dropped "my" and a perfect: "Favourite colour's always been green" -> "my favourite colour is green";
 *  - a new name after a name change: "took my husband's name so it's Emily Novak now" -> "my name is Emily Novak".
 */

const INTERJECTION = /^(?:funny|honestly|anyway|anyways|well|oh|ok|okay|so|right|update|quick update|small update|news|big news|good news|change of plan|change of plans|fun fact|btw|by the way|plot twist|fyi|heads up|update on me)\s*[,:!—–-]+\s*(?=\S)/i;
const NEW_FAVOURITE = /^(?:(?:ok|okay|so|well)\s+)?(?:(?:my|our)\s+)?new\s+(favou?rite\s+[\p{L}]+)\s*[:=–—-]\s*/iu;
const FAVOURITE_ALWAYS = /^(?:(?:my|our)\s+)?(favou?rite\s+[\p{L}]+)(?:['’]s|\s+has|\s+have)\s+(?:always\s+|probably\s+|forever\s+)?been\s+/iu;
const NEW_NAME = /\b(?:took|taken|taking|changed|changing|went back to|gone back to)\b.*\b(?:sur)?name\b.*?\b(?:so\s+|and\s+)?(?:it\s+is|it['’]s|its|i\s+am|i['’]m|now)\s+(?:now\s+)?([A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)+)/u;

export function restate(sentence: string): string {
  const name = NEW_NAME.exec(sentence);
  if (name) return `my name is ${name[1]}`;
  const trimmed = sentence.trim().replace(INTERJECTION, '');
  return trimmed.replace(NEW_FAVOURITE, (_m, head: string) => `my ${head} is `).replace(FAVOURITE_ALWAYS, (_m, head: string) => `my ${head} is `);
}
