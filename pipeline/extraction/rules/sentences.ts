/**
 * Sentence and clause segmentation for short chat text.
 */

const ABBREVIATIONS = /\b(?:mr|mrs|ms|dr|prof|st|jr|sr|vs|etc|inc|ltd|co|corp|mt|ft|no|approx|dept|univ|e\.g|i\.e|u\.s|u\.k|a\.m|p\.m)\.$/i;

/** Splits text into sentences at line breaks and at ., ! and ? (keeping the terminator). */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n+/)) {
    let start = 0;
    const re = /([.!?]+|…)(?=\s+|$)|\s+[-–—]\s+(?=[A-Z])/g;
    let match: RegExpExecArray | null;
    while ((match = re.exec(line))) {
      const endIndex = match.index + match[0].length;
      const candidate = line.slice(start, endIndex);
      if (match[0].startsWith('.') && (ABBREVIATIONS.test(candidate.trim()) || /\b[A-Z]\.$/.test(candidate.trim()))) continue;
      if (candidate.trim()) sentences.push(candidate.trim());
      start = endIndex;
    }
    const tail = line.slice(start).trim();
    if (tail) sentences.push(tail);
  }
  return sentences;
}

/** A clause and whether its subject was left out ("... and work at Siemens"). */
export interface Clause {
  text: string;
  inheritsSubject: boolean;
  /** Introduced by a temporal or conditional conjunction ("when I was 9", "before I turn 40"): background, not a fact. */
  subordinate?: boolean;
}

const SUBJECT_START = /^(?:i|we|he|she|they|my|our|his|her|their|it|there|this|that|me)\b/i;
const CONJUNCTION = /(?:,|;)?\s+(?:and then|and now|but now|but|and|because|cause|cuz|since|although|though|while|whereas|so|plus|yet|as|then|when|where|after|before|until)\s+|\s*;\s*|,\s+|\s+[-–—]\s+|:\s+/gi;

/**
 * Splits a sentence at conjunctions that start a new clause: one with its own
 * subject ("..., and I work at X") or one that continues the same subject with
 * a verb the caller recognises ("... and work at X").
 */
export function splitClauses(
  sentence: string,
  startsWithVerb: (text: string) => boolean,
  startsWithName: (text: string) => boolean,
  containsVerb: (text: string) => boolean,
  startsFragment: (text: string) => boolean = () => false,
): Clause[] {
  const clauses: Clause[] = [];
  let start = 0;
  let inherits = false;
  let subordinate = false;
  let pieceIsFragment = false;
  CONJUNCTION.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = CONJUNCTION.exec(sentence))) {
    // Only the start of what follows matters; a bounded slice keeps long inputs linear.
    const after = sentence.slice(match.index + match[0].length, match.index + match[0].length + 120);
    const connector = match[0].trim().replace(/^[,;]\s*/, '').toLowerCase();
    const isBareComma = connector === '' || connector === ',';
    const afterAdverb = after.replace(/^(?:now|then|currently|today|these days|since then|so|but|and|actually),?\s+/i, '');
    const newSubject = SUBJECT_START.test(afterAdverb) || startsWithName(afterAdverb);
    // "... and work at X"; in chat also a bare comma: "left the bank, started at a charity".
    const pastAfterComma = isBareComma && /^[a-z]+(?:ed|t)\b|^(?:quit|sold|bought|got|went|took|began|became|joined|started|moved|left|lost|met|made|found)\b/i.test(after) && startsWithVerb(after);
    const verbAfterComma = isBareComma && /^[a-z]/.test(after) && startsWithVerb(after) && !/^\S+ing\b/i.test(after);
    // "41, software architect at Intuit, married to Grace": verbless fragments of a profile list.
    // "I lived in Paris until 2014, then London until 2020": a name and a date that leave the verb out.
    const gapped = /^(?:then|and then)$/.test(connector) && /^[A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)*\s+(?:until|till|from|in|for|since)\s/u.test(after);
    const fragment = (isBareComma && startsFragment(after)) || gapped;
    const continuation = fragment || ((!isBareComma && /^(?:and|but|and then|and now|but now|plus|then|yet)$/.test(connector)) || pastAfterComma || verbAfterComma) && startsWithVerb(after);
    if (!newSubject && !continuation) continue;
    const piece = sentence.slice(start, match.index).trim();
    // "Julia and I got married", "Me and my husband live ...": a compound subject, not two clauses.
    // "Tom, my brother, lives ...": an appositive, not a clause.
    if (!fragment && !pieceIsFragment && !startsFragment(piece) && (connector === 'and' || isBareComma) && piece.length <= 60 && piece.split(/\s+/).length <= 4 && !containsVerb(piece) && !/^(?:hi|hello|hey|well|ok|okay|so|yes|yeah|no|oh|btw|also|actually|honestly|anyway)$/i.test(piece)) continue;
    if (piece) clauses.push({ text: piece, inheritsSubject: inherits, ...(subordinate ? { subordinate } : {}) });
    start = match.index + match[0].length;
    pieceIsFragment = fragment;
    inherits = !newSubject && continuation;
    subordinate = /^(?:when|since|before|after|until|while|as)$/.test(connector);
  }
  const tail = sentence.slice(start).trim();
  if (tail) clauses.push({ text: tail, inheritsSubject: inherits, ...(subordinate ? { subordinate } : {}) });
  return clauses;
}
