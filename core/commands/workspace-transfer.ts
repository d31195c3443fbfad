/**
 * Workspace export and restore: one workspace's records (Store.transfer) and vectors in a portable,
 * versioned, checksummed JSON Lines file (gzip-compressed when the name ends in `.gz`), restorable into an
 * empty workspace of either mode with the same ids, timestamps and timelines. Format: docs/backup-and-migration.md.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import type { Readable, Writable } from 'node:stream';
import { z } from 'zod';
import type { Embedder } from '../../pipeline/types.js';
import { ALL_SCOPES, type MemoryRecord, type Scope, type Store, type TransferRecord, type WorkspaceRecord } from '../../storage/types.js';
import { metadataTerms, type VectorDoc, type VectorIndex } from '../../storage/vector/types.js';
import { vectorFromWire, vectorToWire } from '../../pipeline/write/vector-wire.js';
import { checkEmbedderMatchesStore, embedderSignature } from '../embedder-guard.js';
import { PLAN_NAMES } from '../plans.js';
import { ENGRAM_VERSION } from '../version.js';
import { writeSequence } from './memories.js';

export const EXPORT_FORMAT = 'engram-export';
export const EXPORT_VERSION = 1;
/** Records written to the store per call while restoring. */
const WRITE_BATCH = 500;
/** Vectors upserted (or re-embedded) per call while restoring. */
const VECTOR_BATCH = 128;

/** A problem with the file or the target: nothing was written when it is thrown before the first write. */
export class TransferError extends Error {}

// ---------------------------------------------------------------- file record schemas

const iso = z.string().min(1);
const nullable = z.string().nullable();
const json = z.record(z.string(), z.unknown());

const workspaceSchema = z.strictObject({ id: z.string().min(1), slug: z.string().min(1), plan: z.enum(PLAN_NAMES as [string, ...string[]]), createdAt: iso });
const agentSchema = z.strictObject({ workspaceId: z.string(), agentId: z.string().min(1), createdAt: iso });
/** A key's metadata: never its secret, nor the secret's hash. */
const keySchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  scopes: z.array(z.enum(ALL_SCOPES as [Scope, ...Scope[]])),
  agentId: nullable,
  createdAt: iso,
  revokedAt: nullable,
});
const memorySchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  userId: nullable,
  agentId: nullable,
  runId: nullable,
  content: z.string(),
  metadata: json,
  status: z.enum(['processing', 'ready', 'error']),
  error: nullable,
  version: z.number().int().positive(),
  seq: z.number().int().nonnegative(),
  referenceTime: nullable,
  createdAt: iso,
  updatedAt: iso,
  deletedAt: nullable,
});
const historySchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  memoryId: z.string().min(1),
  event: z.enum(['created', 'updated', 'fact_extracted', 'fact_invalidated', 'deleted']),
  at: iso,
  factId: nullable,
  fact: nullable,
});
const factSchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  userId: nullable,
  agentId: nullable,
  runId: nullable,
  subject: z.string(),
  subjectType: z.string(),
  predicate: z.string(),
  predicateRaw: z.string(),
  family: z.string(),
  object: z.string(),
  objectKey: z.string(),
  subjectKey: z.string(),
  objectIsLiteral: z.boolean(),
  tense: z.string(),
  confidence: z.number(),
  validFrom: iso,
  validFromStated: z.boolean(),
  invalidAt: nullable,
  invalidatedBy: nullable,
  invalidated: z.array(z.string()),
  confirmations: z.array(z.string()),
  lastConfirmedAt: iso,
  sourceMemoryId: nullable,
  sourceMemoryIds: z.array(z.string()),
  sourceVersion: z.number().int(),
  seq: z.number().int().nonnegative(),
  createdAt: iso,
});
const entitySchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  agentId: nullable,
  userId: nullable,
  canonical: z.string(),
  name: z.string(),
  type: z.string(),
  aliases: z.array(z.string()),
  memoryIds: z.array(z.string()),
  createdAt: iso,
  updatedAt: iso,
});
const auditSchema = z.strictObject({
  id: z.string().min(1),
  workspaceId: z.string(),
  ts: iso,
  actor: z.string(),
  action: z.string(),
  result: z.string(),
  userId: nullable,
  targetId: nullable,
  meta: json,
});

/** One line between the header and the end line. */
export const lineSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('agent'), record: agentSchema }),
  z.strictObject({ kind: z.literal('key'), record: keySchema }),
  z.strictObject({ kind: z.literal('memory'), record: memorySchema }),
  z.strictObject({ kind: z.literal('history'), record: historySchema }),
  z.strictObject({ kind: z.literal('fact'), record: factSchema, sourceRefs: z.array(z.string()) }),
  z.strictObject({ kind: z.literal('entity'), record: entitySchema }),
  z.strictObject({ kind: z.literal('audit'), record: auditSchema }),
  /** A memory's vector: float32 little-endian, base64 (exact). */
  z.strictObject({ kind: z.literal('vector'), id: z.string().min(1), vector: z.string().min(1) }),
]);
export type ExportLine = z.infer<typeof lineSchema>;
export type LineKind = ExportLine['kind'];
const LINE_KINDS: LineKind[] = ['agent', 'key', 'memory', 'history', 'fact', 'entity', 'audit', 'vector'];

export const headerSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
  engram_version: z.string(),
  created_at: iso,
  workspace: workspaceSchema,
  /** `<embedder id>/<dimensions>` of the vectors in the file. */
  embedder: z.string().min(1),
  counts: z.strictObject(Object.fromEntries(LINE_KINDS.map((k) => [k, z.number().int().nonnegative()])) as Record<LineKind, z.ZodNumber>),
});
export type ExportHeader = z.infer<typeof headerSchema>;

/** The last line: how many lines precede it and the SHA-256 of their bytes (header included, each with its newline). */
export const endSchema = z.strictObject({ end: z.literal(EXPORT_FORMAT), lines: z.number().int().positive(), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

// ---------------------------------------------------------------- export

/** Writes lines to a stream, waiting for it to drain. */
async function writeTo(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) await new Promise<void>((resolve, reject) => {
    stream.once('drain', resolve);
    stream.once('error', reject);
  });
}

const finished = (stream: Writable) =>
  new Promise<void>((resolve, reject) => {
    stream.once('error', reject);
    stream.end(() => resolve());
  });

/** What the file carries of a store record: keys lose their secret's hash. */
function toLine(r: TransferRecord): ExportLine | null {
  switch (r.kind) {
    case 'workspace':
      return null;
    case 'key': {
      const { hash: _secretHash, ...metadata } = r.record;
      return { kind: 'key', record: metadata };
    }
    default:
      return r as ExportLine;
  }
}

export interface ExportResult {
  workspace: string;
  file: string;
  embedder: string;
  counts: Record<LineKind, number>;
  sha256: string;
}

/**
 * Exports workspace `slug` to `file` (written next to it under a temporary name, then renamed into place).
 * Refuses while memories of the workspace are still processing (their pipeline results would be missing), or
 * while acknowledged writes are not yet stored.
 */
export async function exportWorkspace(store: Store, vectors: VectorIndex, embedder: Embedder, slug: string, file: string): Promise<ExportResult> {
  const workspace = await store.workspaces.getBySlug(slug);
  if (!workspace) throw new TransferError(`No workspace ${slug}`);
  const processing = await store.memories.count({ workspaceId: workspace.id, status: 'processing', includeForgotten: true });
  if (processing > 0) throw new TransferError(`${processing} memories of ${slug} are still processing; wait until they are done (or stop writes) and export again`);
  // Acknowledged writes of any workspace not yet in their tables would be missing (and show as processing soon).
  const waiting = await store.acknowledgedNotStored();
  if (waiting > 0) throw new TransferError(`${waiting} acknowledged requests are still being stored; wait until they are done (or stop writes) and export again`);

  const counts = Object.fromEntries(LINE_KINDS.map((k) => [k, 0])) as Record<LineKind, number>;
  const bodyFile = `${file}.body-${process.pid}`;
  const partFile = `${file}.partial-${process.pid}`;
  try {
    // 1. records and vectors to a body file, counting them (the header states the counts)
    const body = createWriteStream(bodyFile);
    for await (const record of store.transfer.read(workspace.id)) {
      const line = toLine(record);
      if (!line) continue;
      counts[line.kind]++;
      await writeTo(body, `${JSON.stringify(line)}\n`);
    }
    for await (const v of vectors.exportVectors(workspace.id)) {
      counts.vector++;
      await writeTo(body, `${JSON.stringify({ kind: 'vector', id: v.id, vector: vectorToWire(v.vector) } satisfies ExportLine)}\n`);
    }
    await finished(body);

    // 2. header + body + end line, hashed as written
    const header: ExportHeader = {
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      engram_version: ENGRAM_VERSION,
      created_at: new Date().toISOString(),
      workspace,
      embedder: embedderSignature(embedder),
      counts,
    };
    const hash = createHash('sha256');
    const fileStream = createWriteStream(partFile);
    const gzip = file.endsWith('.gz') ? createGzip() : null;
    gzip?.pipe(fileStream);
    const out: Writable = gzip ?? fileStream;
    const emit = async (text: string) => {
      hash.update(text);
      await writeTo(out, text);
    };
    await emit(`${JSON.stringify(header)}\n`);
    let lines = 1;
    for await (const line of createInterface({ input: createReadStream(bodyFile), crlfDelay: Infinity })) {
      await emit(`${line}\n`);
      lines++;
    }
    const sha256 = hash.digest('hex');
    await writeTo(out, `${JSON.stringify({ end: EXPORT_FORMAT, lines, sha256 })}\n`);
    if (gzip) {
      const closed = new Promise<void>((resolve, reject) => {
        fileStream.once('close', resolve);
        fileStream.once('error', reject);
      });
      gzip.end();
      await closed;
    } else await finished(fileStream);
    renameSync(partFile, file);
    return { workspace: slug, file, embedder: header.embedder, counts, sha256 };
  } finally {
    rmSync(bodyFile, { force: true });
    rmSync(partFile, { force: true });
  }
}

// ---------------------------------------------------------------- reading a file

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The file's lines (gunzipped when it is gzip, whatever its name); a damaged gzip stream is a TransferError. */
async function* fileLines(file: string): AsyncGenerator<string> {
  const raw: Readable = createReadStream(file);
  const input: Readable = (await isGzip(file)) ? raw.pipe(createGunzip()) : raw;
  const failure = new Promise<never>((_, reject) => {
    raw.once('error', reject);
    input.once('error', (error) => reject(new TransferError(`${file} is truncated or damaged (${(error as Error).message})`)));
  });
  failure.catch(() => undefined);
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  for (;;) {
    const next = await Promise.race([lines.next(), failure]);
    if (next.done) return;
    yield next.value;
  }
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TransferError(`${where} is not JSON`);
  }
}

const issueText = (error: z.ZodError) => {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'line'}: ${issue.message}`;
};

/**
 * Checks the whole file before anything is written: header (format, version), every line against its schema
 * and the workspace, the counts, the end line and the checksum. Returns the header.
 */
export async function verifyExportFile(file: string): Promise<ExportHeader> {
  if (!existsSync(file)) throw new TransferError(`${file} does not exist`);
  let header: ExportHeader | null = null;
  let end: z.infer<typeof endSchema> | null = null;
  const hash = createHash('sha256');
  const counts = Object.fromEntries(LINE_KINDS.map((k) => [k, 0])) as Record<LineKind, number>;
  let n = 0;
  for await (const text of fileLines(file)) {
    n++;
    if (end) throw new TransferError(`${file}: line ${n} follows the end line`);
    if (n === 1) {
      const value = parseJson(text, `${file} line 1`) as Record<string, unknown> | null;
      if (value?.format !== EXPORT_FORMAT) throw new TransferError(`${file} is not an Engram workspace export (its first line has no "format": "${EXPORT_FORMAT}")`);
      if (value.version !== EXPORT_VERSION) {
        throw new TransferError(`${file} is format version ${String(value.version)}; this Engram (${ENGRAM_VERSION}) reads version ${EXPORT_VERSION}: restore it with a matching Engram`);
      }
      const parsed = headerSchema.safeParse(value);
      if (!parsed.success) throw new TransferError(`${file}: bad header (${issueText(parsed.error)})`);
      header = parsed.data;
      hash.update(`${text}\n`);
      continue;
    }
    const value = parseJson(text, `${file} line ${n}`) as Record<string, unknown> | null;
    if (value && 'end' in value) {
      const parsed = endSchema.safeParse(value);
      if (!parsed.success) throw new TransferError(`${file}: bad end line (${issueText(parsed.error)})`);
      end = parsed.data;
      continue;
    }
    const parsed = lineSchema.safeParse(value);
    if (!parsed.success) throw new TransferError(`${file} line ${n}: ${issueText(parsed.error)}`);
    const line = parsed.data;
    if (line.kind !== 'vector' && line.record.workspaceId !== header!.workspace.id) throw new TransferError(`${file} line ${n}: a record of another workspace`);
    counts[line.kind]++;
    hash.update(`${text}\n`);
  }
  if (!header) throw new TransferError(`${file} is empty`);
  if (!end) throw new TransferError(`${file} is truncated: it has no end line`);
  if (end.lines !== n - 1) throw new TransferError(`${file} is damaged: the end line counts ${end.lines} lines, the file has ${n - 1}`);
  if (end.sha256 !== hash.digest('hex')) throw new TransferError(`${file} is damaged: its checksum does not match its contents`);
  for (const kind of LINE_KINDS) {
    if (counts[kind] !== header.counts[kind]) throw new TransferError(`${file} is damaged: the header counts ${header.counts[kind]} ${kind} lines, the file has ${counts[kind]}`);
  }
  return header;
}

/** The verified file's lines after the header, parsed (call verifyExportFile first). */
async function* exportLines(file: string): AsyncGenerator<ExportLine> {
  let n = 0;
  for await (const text of fileLines(file)) {
    if (n++ === 0) continue;
    const value = JSON.parse(text);
    if ('end' in value) return;
    yield lineSchema.parse(value);
  }
}

// ---------------------------------------------------------------- restore

export interface RestoreResult {
  workspace: string;
  workspace_id: string;
  counts: Record<LineKind, number>;
  /** `carried`: the file's vectors were written as they are; `re-embedded`: the file came from another embedder. */
  vectors: 'carried' | 're-embedded';
  embedder: string;
  /** Keys come back as revoked metadata: create new ones with `admin keys create`. */
  keys_revoked: number;
}

/**
 * Restores an export into `store` / `vectors`: the file is verified completely first, and the target must hold
 * nothing of the workspace (neither its id nor its slug); both checks write nothing. Records keep their ids,
 * timestamps, versions and sequence numbers; keys come back revoked (the file has no secrets); vectors are
 * written as they are when `embedder` is the one that made them, else the same memories are re-embedded.
 * The workspace record is written last, so an interrupted restore leaves no usable workspace and may be re-run.
 */
export async function restoreWorkspace(
  store: Store,
  vectors: VectorIndex,
  embedder: Embedder,
  file: string,
  options: { now?: () => string; onProgress?: (p: { kind: string; done: number }) => void } = {},
): Promise<RestoreResult> {
  const header = await verifyExportFile(file);
  const ws = header.workspace as WorkspaceRecord;
  if (!(await store.transfer.isEmpty(ws.id, ws.slug))) {
    throw new TransferError(`The target already has workspace ${ws.slug} (${ws.id}) or records of it; restore writes only into an empty workspace`);
  }
  const signature = embedderSignature(embedder);
  // Refuses a target whose stored vectors come from another embedder (and records ours in an empty one).
  await checkEmbedderMatchesStore(store, embedder);
  const carry = header.embedder === signature;
  const now = options.now?.() ?? new Date().toISOString();

  let pending: TransferRecord[] = [];
  let maxSeq = 0;
  const flush = async () => {
    if (pending.length) await store.transfer.write(pending);
    pending = [];
  };
  let vectorIds: string[] = [];
  const carried = new Map<string, Float32Array>();
  const flushVectors = async () => {
    if (vectorIds.length === 0) return;
    const memories = new Map((await store.memories.getMany(ws.id, vectorIds)).map((m) => [m.id, m]));
    const targets = vectorIds.map((id) => memories.get(id)).filter((m): m is MemoryRecord => m !== undefined && m.deletedAt === null);
    const made = carry ? targets.map((m) => carried.get(m.id)!) : await embedder.embed(targets.map((m) => m.content));
    const docs: VectorDoc[] = targets.map((m, i) => ({
      id: m.id,
      workspaceId: ws.id,
      agentId: m.agentId,
      userId: m.userId,
      runId: m.runId,
      metadataTerms: metadataTerms(m.metadata),
      vector: made[i],
      text: m.content,
    }));
    await vectors.upsert(docs);
    vectorIds = [];
    carried.clear();
  };
  let keysRevoked = 0;
  let done = 0;
  for await (const line of exportLines(file)) {
    if (line.kind === 'vector') {
      await flush();
      const vector = vectorFromWire(line.vector);
      if (carry && vector.length !== embedder.dimensions) throw new TransferError(`vector of ${line.id} has ${vector.length} dimensions, the embedder ${embedder.dimensions}`);
      vectorIds.push(line.id);
      if (carry) carried.set(line.id, vector);
      if (vectorIds.length >= VECTOR_BATCH) await flushVectors();
    } else if (line.kind === 'key') {
      keysRevoked++;
      // No secret in the file: the key comes back as revoked metadata, its hash a value no secret hashes to.
      pending.push({ kind: 'key', record: { ...line.record, hash: `restored:${line.record.id}`, revokedAt: line.record.revokedAt ?? now } });
    } else {
      if (line.kind === 'memory' || line.kind === 'fact') maxSeq = Math.max(maxSeq, line.record.seq);
      pending.push(line as TransferRecord);
    }
    if (pending.length >= WRITE_BATCH) await flush();
    if (++done % 1000 === 0) options.onProgress?.({ kind: line.kind, done });
  }
  await flush();
  await flushVectors();
  // New writes must sort after the restored ones: the workspace's write sequence continues past them.
  const sequence = writeSequence(ws.id);
  const at = await store.sequences.next(sequence, 1);
  if (at < maxSeq) await store.sequences.next(sequence, maxSeq - at);
  await store.transfer.write([{ kind: 'workspace', record: ws }]);
  return { workspace: ws.slug, workspace_id: ws.id, counts: header.counts, vectors: carry ? 'carried' : 're-embedded', embedder: signature, keys_revoked: keysRevoked };
}
