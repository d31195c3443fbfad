import { randomUUID } from 'node:crypto';
import { MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { isDuplicateKeyError } from './util.js';

/**
 * What the server behind MONGODB_URL can do beyond the common subset. Real MongoDB (the production target) has
 * everything; FerretDB 1.x (the MongoDB wire protocol server `npm run backends:up` runs for development and tests)
 * lacks a few things, each guarded where it is used:
 *
 * - TTL indexes (`expireAfterSeconds`): created without the TTL, expired documents swept at start (store.ts).
 * - `$group` accumulators other than `$sum`/`$count`, and `$facet`: summaries fall back to a plain find (memories.ts).
 * - `arrayFilters`: batches read and rewrite the arrays instead (records.ts).
 * - `$push` with `$sort` is accepted but the `$sort` is ignored: batch errors are sorted when read (records.ts).
 * - Lookups by id scan on its SQLite backend: `_id: {$in: [...]}` reads the whole collection (207 ms for 10 ids at
 *   5k memories), as does `_id` with any other condition, while a `findOne` by `_id` alone stops at its match
 *   (82 ms for the same 10, concurrently). Reads of memories by id ask for each id on its own there and check the
 *   workspace themselves (memories.ts).
 * - Atomic read-modify-write: FerretDB 1.x runs `update`/`findAndModify` as "query, change in Go, write back by _id"
 *   with nothing in between, so two concurrent conditional updates of one document can both apply (lost `$inc`s,
 *   a compare-and-set won twice). On such a server every update of a collection runs under a short lease in
 *   `<prefix>write_locks`, taken by inserting a document with a unique `_id` (an insert is atomic there).
 */
export interface ServerTraits {
  /** Every update of a collection must be serialised by the store itself. */
  serializeUpdates: boolean;
  /** A lookup of several ids is faster one `_id` at a time than as one `$in`. */
  lookupIdsOneByOne: boolean;
  ferretdb: string | null;
}

export async function detectServer(db: Db): Promise<ServerTraits> {
  const info = await db.admin().command({ buildInfo: 1 });
  const ferretdb = typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : null;
  return { serializeUpdates: ferretdb !== null, lookupIdsOneByOne: ferretdb !== null, ferretdb };
}

/** The server's code for a feature it does not implement. */
export const NOT_IMPLEMENTED = 238;

export const isNotImplemented = (error: unknown) => error instanceof MongoServerError && error.code === NOT_IMPLEMENTED;

interface WriteLockDoc {
  _id: string;
  owner: string;
  expiresAt: Date;
}

/** Lease length: far above one update's duration; a crashed holder blocks others for at most this long. */
const LEASE_MS = 5_000;
const UPDATE_METHODS = new Set(['updateOne', 'updateMany', 'findOneAndUpdate', 'findOneAndReplace', 'replaceOne']);

/**
 * Wraps a collection so that each update method runs under the collection's write lease (see ServerTraits).
 * Reads, inserts and deletes pass through: single-statement operations are atomic on the server.
 */
export function serializeUpdates<T extends Document>(collection: Collection<T>, locks: Collection<WriteLockDoc>): Collection<T> {
  const lock = new WriteLock(locks, collection.collectionName);
  return new Proxy(collection, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof property === 'string' && UPDATE_METHODS.has(property) && typeof value === 'function') {
        return (...args: unknown[]) => lock.run(() => value.apply(target, args));
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

class WriteLock {
  /** Updates from this process queue here first, so only one of them polls the server at a time. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly locks: Collection<WriteLockDoc>,
    private readonly name: string,
  ) {}

  run<R>(operation: () => Promise<R>): Promise<R> {
    const result = this.tail.then(() => this.locked(operation));
    this.tail = result.catch(() => undefined);
    return result;
  }

  private async locked<R>(operation: () => Promise<R>): Promise<R> {
    const owner = randomUUID();
    await this.acquire(owner);
    try {
      return await operation();
    } finally {
      await this.locks.deleteOne({ _id: this.name, owner });
    }
  }

  private async acquire(owner: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.locks.insertOne({ _id: this.name, owner, expiresAt: new Date(Date.now() + LEASE_MS) });
        return;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const held = await this.locks.findOne({ _id: this.name });
      if (held && held.expiresAt.getTime() < Date.now()) {
        // The holder died: free the lease (only that holder's), then race for it again.
        await this.locks.deleteOne({ _id: this.name, owner: held.owner });
        continue;
      }
      await new Promise((r) => setTimeout(r, Math.min(20, 1 + attempt) * (0.5 + Math.random())));
    }
  }
}
