import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EXTRACTOR_DIR, readExtractorFiles } from './model-files.js';
import { splitWords, windows } from './words.js';

const { labels } = readExtractorFiles(DEFAULT_EXTRACTOR_DIR);
const pattern = new RegExp(labels.wordPattern, 'gu');

describe('words and windows (the layout the extractor was trained on)', () => {
  it('uses the word pattern and window size training used', () => {
    const python = readFileSync(join(DEFAULT_EXTRACTOR_DIR, '../../training/extraction/words.py'), 'utf8');
    expect(python).toContain(`WORD_PATTERN = r"${labels.wordPattern}"`);
    expect(python).toContain(`MAX_PIECES = ${labels.maxPieces}`);
  });

  it('splits letters and digits from punctuation, keeping character offsets', () => {
    const text = "I'm 1.85 m tall — café in Zürich 🥳";
    const words = splitWords(text, pattern);
    expect(words.map((w) => w.text)).toEqual(['I', "'", 'm', '1', '.', '85', 'm', 'tall', '—', 'café', 'in', 'Zürich', '🥳']);
    for (const w of words) expect(text.slice(w.start, w.end)).toBe(w.text);
  });

  it('cuts long texts into windows at sentence ends, never over the piece budget', () => {
    const text = 'one two three. four five six. seven eight';
    const words = splitWords(text, pattern);
    const counts = words.map(() => 2);
    const cut = windows(words, text, counts, 9);
    expect(cut.flat()).toEqual(words.map((_, i) => i));
    for (const window of cut) expect(window.reduce((sum, i) => sum + counts[i], 0)).toBeLessThanOrEqual(9);
    expect(cut[0].map((i) => words[i].text)).toEqual(['one', 'two', 'three', '.']);
  });

  it('cuts a sentence with no end inside the budget where it overflows, and caps a single huge word', () => {
    const text = 'a '.repeat(50) + 'x'.repeat(10);
    const words = splitWords(text, pattern);
    const counts = words.map((w) => (w.text.length > 1 ? 500 : 1));
    const cut = windows(words, text, counts, 20);
    expect(cut.flat()).toEqual(words.map((_, i) => i));
    expect(cut.every((w) => w.length <= 20)).toBe(true);
  });
});
