/**
 * Expands English contractions (and their common apostrophe-less chat spellings)
 * so later stages see "I am", "do not", "is". Case of the surrounding text is kept.
 */

const NOT_CONTRACTIONS: [RegExp, string][] = [
  [/\bcan(?:'|’)?t\b|\bcannot\b/gi, 'can not'],
  [/\bwon(?:'|’)t\b/gi, 'will not'],
  [/\bshan(?:'|’)t\b/gi, 'shall not'],
  [/\bain(?:'|’)t\b/gi, 'am not'],
  [/\b(do|does|did|is|are|was|were|have|has|had|would|could|should|must|need|might)n(?:'|’)t\b/gi, '$1 not'],
  [/\b(dont|doesnt|didnt|isnt|arent|wasnt|werent|havent|hasnt|hadnt|wouldnt|couldnt|shouldnt)\b/gi, '__NOT__$1'],
];

const PARTICIPLE_AFTER_HAD = /^(?:been|never|already|just|always|lived|worked|had|gone|moved|got|gotten|seen|done|left|known|[a-z]+ed)\b/i;
const IS_AFTER_POSSESSIVE =
  /^(?:a|an|the|not|from|in|on|at|been|going|very|so|really|just|also|still|now|currently|called|named|allergic|married|engaged|pregnant|retired|vegan|vegetarian|a|\d|over|under|about|almost|nearly|turning|getting|living|working|studying|my|your|his|her|our|their|gone|back|away|home|sick|ill|dead|single|divorced)\b/i;

const OBJECT_POSITION = /^(?:at|from|to|for|with|in|into|of|on|by|near|left|quit|joined|sold|bought|visited|leave|leaving|join|joining|[a-z]+ed)$/i;

export function expandContractions(text: string): string {
  let s = text.replace(/[’‘`´]/g, "'");
  for (const [pattern, replacement] of NOT_CONTRACTIONS) {
    s = s.replace(pattern, (_match, ...groups) => {
      if (replacement === '__NOT__$1') return `${String(groups[0]).slice(0, -2)} not`;
      return replacement.replace('$1', groups[0] ?? '');
    });
  }
  s = s
    .replace(/\bi'?m\b(?=\s)/gi, 'I am')
    .replace(/\bi've\b|\bive\b(?=\s)/gi, 'I have')
    .replace(/\bi'll\b/gi, 'I will')
    .replace(/\b(you|we|they)'re\b/gi, '$1 are')
    .replace(/\b(you|we|they)'ve\b/gi, '$1 have')
    .replace(/\b(you|we|they|he|she|it)'ll\b/gi, '$1 will')
    .replace(/\bgonna\b/gi, 'going to')
    .replace(/\bwanna\b/gi, 'want to')
    .replace(/\bgotta\b/gi, 'got to')
    .replace(/\b(he|she|it|that|there|what|who|where|here|this)'s(\s+)(been|got|gotten|had)\b/gi, '$1 has$2$3')
    .replace(/\b(he|she|it|that|there|what|who|where|here|this)'s\b/gi, '$1 is');
  s = s.replace(/\b(i|you|we|they|he|she)'d(\s+)(\S+)/gi, (_m, pronoun: string, space: string, next: string) =>
    `${pronoun} ${PARTICIPLE_AFTER_HAD.test(next) ? 'had' : 'would'}${space}${next}`,
  );
  // "Anna's a doctor", "my birthday's on May 3" -> "is"; "Anna's brother" stays possessive.
  // After a preposition or a past verb the name is an object: "left Guy's in March", "at Sainsbury's on Fridays".
  s = s.replace(/(\S+\s+)?\b([A-Za-z]+)'s(\s+)(\S+)/g, (match, before: string | undefined, word: string, space: string, next: string) =>
    IS_AFTER_POSSESSIVE.test(next) && !/^(?:let)$/i.test(word) && !OBJECT_POSITION.test(before?.trim() ?? '') ? `${before ?? ''}${word} is${space}${next}` : match,
  );
  return s;
}
