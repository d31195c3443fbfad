import { createHash, randomBytes } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

export type IdPrefix = 'mem' | 'fct' | 'aud' | 'bat' | 'ws' | 'key' | 'evt' | 'ent' | 'job';

/** Time-sortable identifier with a resource prefix, e.g. `mem_01J…`. */
export const newId = (prefix: IdPrefix) => `${prefix}_${nextUlid()}`;

/** Deterministic id from parts, for records a retried job must not duplicate. */
export const derivedId = (prefix: IdPrefix, ...parts: (string | number)[]) =>
  `${prefix}_${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 26)}`;

export const API_KEY_PREFIX = 'eng_';

export const newApiKeySecret = () => `${API_KEY_PREFIX}${randomBytes(24).toString('base64url')}`;

export const hashApiKey = (secret: string) => createHash('sha256').update(secret).digest('hex');
