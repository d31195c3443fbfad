import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Constant-time comparison of a given secret with the expected one. Both sides are
 * hashed first so that the comparison takes the same time whatever the given length,
 * and the expected secret's length does not leak either.
 */
export const sameSecret = (given: string, expected: string) => timingSafeEqual(digest(given), digest(expected));

/** Whether an `Authorization` header carries the operator credential (ADMIN_CREDENTIALS, `user:password`) as HTTP basic. */
export function isOperator(authorization: string | undefined, credentials: string): boolean {
  const match = /^Basic\s+(\S+)$/i.exec(authorization ?? '');
  return sameSecret(match ? Buffer.from(match[1], 'base64').toString('utf8') : '', credentials);
}
