import { createHash, getRandomValues, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

/**
 * ulid's own random source asks the OS for one byte per character, 16 calls per id (about 80 us
 * each id on a loaded machine); this one draws from a pool refilled 1,024 values at a time.
 */
const pool = new Uint32Array(1024);
let pooled = 0;
function pooledRandom(): number {
  if (pooled === 0) {
    getRandomValues(pool);
    pooled = pool.length;
  }
  return pool[--pooled] / 2 ** 32;
}

const nextUlid = monotonicFactory(pooledRandom);

export type IdPrefix = 'mem' | 'fct' | 'aud' | 'bat' | 'ws' | 'key' | 'evt' | 'ent' | 'job';

/** Time-sortable identifier with a resource prefix, e.g. `mem_01J…`. */
export const newId = (prefix: IdPrefix) => `${prefix}_${nextUlid()}`;

/** Deterministic id from parts, for records a retried job must not duplicate. */
export const derivedId = (prefix: IdPrefix, ...parts: (string | number)[]) =>
  `${prefix}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 26)}`;

export const API_KEY_PREFIX = 'eng_';

export const newApiKeySecret = () => `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;

export const hashApiKey = (secret: string) => createHash('sha256').update(secret).digest('hex');
