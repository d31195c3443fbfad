import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * What an import has done so far, rewritten atomically after every accepted batch
 * so a rerun continues after the last accepted row and never sends a row twice.
 */
export const importStateSchema = z.object({
  source: z.object({ path: z.string(), sha256: z.string(), rows: z.int() }),
  url: z.string(),
  /** Rows (in file order, after parsing) already handled: sent in an accepted batch or skipped as invalid. */
  done: z.int().min(0),
  sent: z.int().min(0),
  skipped: z.int().min(0),
  batches: z.array(z.object({ id: z.string(), first_line: z.int(), last_line: z.int(), items: z.int() })),
  /** Set while a batch request is in flight; present after a hard kill (that batch may or may not have been stored). */
  pending: z.object({ first_line: z.int(), last_line: z.int(), items: z.int() }).nullable(),
  completed: z.boolean(),
});

export type ImportState = z.infer<typeof importStateSchema>;

export function loadState(path: string): ImportState | null {
  if (!existsSync(path)) return null;
  return importStateSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}

export function saveState(path: string, state: ImportState): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  renameSync(tmp, path);
}
