/**
 * Words and windows: the text layout the extractor was trained on (training/extraction/words.py is the same
 * procedure in Python). The word pattern and window size come from the model's labels.json.
 */

export interface Word {
  text: string;
  start: number;
  end: number;
}

const SENTENCE_END = new Set(['.', '!', '?', ';']);

export function splitWords(text: string, pattern: RegExp): Word[] {
  const words: Word[] = [];
  for (const m of text.matchAll(pattern)) words.push({ text: m[0], start: m.index!, end: m.index! + m[0].length });
  return words;
}

export function endsSentence(words: readonly Word[], text: string, i: number): boolean {
  if (SENTENCE_END.has(words[i].text)) return true;
  const next = i + 1 < words.length ? words[i + 1].start : text.length;
  return text.slice(words[i].end, next).includes('\n');
}

/** Word indices in windows of at most `maxPieces` word pieces, cut after a sentence end where one exists. */
export function windows(words: readonly Word[], text: string, pieceCounts: readonly number[], maxPieces: number): number[][] {
  const out: number[][] = [];
  let current: number[] = [];
  let size = 0;
  let lastEnd = -1;
  const cost = (i: number) => Math.min(pieceCounts[i], maxPieces);
  pieceCounts.forEach((_, i) => {
    while (current.length > 0 && size + cost(i) > maxPieces) {
      const cut = lastEnd >= 0 ? lastEnd + 1 : current.length;
      out.push(current.slice(0, cut));
      current = current.slice(cut);
      size = current.reduce((sum, j) => sum + cost(j), 0);
      lastEnd = -1;
      current.forEach((j, k) => {
        if (endsSentence(words, text, j)) lastEnd = k;
      });
    }
    current.push(i);
    size += cost(i);
    if (endsSentence(words, text, i)) lastEnd = current.length - 1;
  });
  if (current.length > 0) out.push(current);
  return out;
}
