import { MongoBulkWriteError, MongoServerError, type Collection, type Document, type Filter } from 'mongodb';
import type { Page } from '../types.js';

/** E11000 and its legacy variants. */
const DUPLICATE_KEY_CODES = new Set([11000, 11001, 12582]);

export function isDuplicateKeyError(error: unknown): boolean {
  if (error instanceof MongoBulkWriteError) {
    const writeErrors = Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors];
    return writeErrors.length > 0 && writeErrors.every((e) => e && DUPLICATE_KEY_CODES.has(e.code));
  }
  return error instanceof MongoServerError && typeof error.code === 'number' && DUPLICATE_KEY_CODES.has(error.code);
}

/**
 * Runs an upsert-style operation again when it lost an insert race on a unique
 * index (two concurrent upserts may both miss and both try to insert; the loser
 * sees E11000 and, on retry, matches the winner's document).
 */
export async function retryOnDuplicateKey<T>(operation: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= attempts || !isDuplicateKeyError(error)) throw error;
    }
  }
}

/**
 * Adds `field: value` to a filter unless value is undefined (undefined means "any").
 * `null` is kept: documents always store nulls explicitly, so `{field: null}` selects
 * exactly the default namespace / no-user records.
 */
export function maybe<T extends Document>(filter: Filter<T>, field: string, value: unknown): Filter<T> {
  if (value !== undefined) (filter as Document)[field] = value;
  return filter;
}

/** Skip/limit that mirror SQL's LIMIT/OFFSET (MongoDB treats limit 0 as "no limit"). */
export function pageOf(page: Page): { skip: number; limit: number } | null {
  const limit = Math.max(0, Math.floor(page.limit));
  const skip = Math.max(0, Math.floor(page.offset));
  return limit === 0 ? null : { skip, limit };
}

/** Splits large id lists so one `$in` stays well below the 16 MB command limit. */
export function chunks<T>(values: readonly T[], size = 1000): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}

/**
 * Non-transactional "delete and report": reads the matching documents (only the
 * fields the report needs), then deletes exactly those ids that still match. A
 * document that starts matching in between is left for the next purge instead of
 * being deleted unreported. Two purges racing on the same documents may both
 * report them; the deletion itself is idempotent.
 */
export async function findAndDelete<T extends Document>(
  collection: Collection<T>,
  filter: Filter<T>,
  projection: Document,
): Promise<T[]> {
  const found = (await collection.find(filter, { projection }).toArray()) as T[];
  const removed: T[] = [];
  for (const part of chunks(found)) {
    const ids = part.map((d) => d._id);
    await collection.deleteMany({ $and: [filter, { _id: { $in: ids } }] } as unknown as Filter<T>);
    removed.push(...part);
  }
  return removed;
}

/** Ascending binary string order, like SQLite's default collation and MongoDB's simple collation. */
export const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
