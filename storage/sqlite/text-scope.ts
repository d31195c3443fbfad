import { createHash } from 'node:crypto';

/**
 * The word that stands for a document's user scope in the keyword index's `scope` column, so that one user's keyword
 * query asks FTS5 for that user's documents only (`{scope} : word`) instead of scoring every match in the index and
 * discarding the other users'. A hash, never the user id itself: letters then digits, one token that no stemmer
 * changes. Two scopes sharing a word only widen what FTS5 returns; the user is still checked against the row.
 */
export function textScopeWord(workspaceId: string, userId: string | null): string {
  if (userId === null) return '';
  const hash = createHash('sha256').update(workspaceId).update('\u0000').update(userId).digest();
  return `scope${hash.readUIntBE(0, 6)}`;
}
