import type Database from 'better-sqlite3';

/** A claimed job row. */
export interface JobRow {
  id: string;
  payload: string;
  attempts: number;
}

/** A job row to insert: its id, its payload (JSON), and the hash of its user scope and the lane that hash gives. */
export interface NewJobRow {
  id: string;
  payload: string;
  scopeHash: number;
  lane: number;
}

/**
 * The jobs table: the embedded runner's durable queue (workers/embedded/runner.ts). Jobs are claimed per lane in
 * arrival order (`order_key`); a claim is a lease (`run_after`), so a job whose runner vanished is claimed again.
 * Methods without a transaction of their own run in the caller's.
 */
export class SqliteJobs {
  private prepared: ReturnType<typeof prepare> | null = null;

  constructor(private readonly db: Database.Database) {}

  /** Prepared on first use: a store whose process never runs the embedded queue never touches the table. */
  private get statements() {
    return (this.prepared ??= prepare(this.db));
  }

  /** Inserts pending jobs after every job so far (a job already queued is left as it is). */
  insert(rows: NewJobRow[], now: number): void {
    for (const { id, payload, scopeHash, lane } of rows) this.statements.insert.run(id, payload, now, now, now, scopeHash, lane);
  }

  /**
   * Claims a lane's oldest ready job until `leaseUntil`, counting an attempt; but when an earlier write of that
   * job's user scope waits ready in the lane, that write instead. Arrival order (`order_key`) and a scope's write
   * order (`seq`) can disagree: two requests take their sequence numbers in one order and reach the acceptance in
   * the other. Claimed by `order_key` alone, the later writes could fill every slot of the lane waiting for
   * their turn, while the write they wait for was never claimed.
   */
  claim(lane: number, now: number, leaseUntil: number): JobRow | undefined {
    const next = this.statements.next.get(lane, now) as { id: string; workspace_id: string; memory_id: string } | undefined;
    if (!next) return undefined;
    const earlier = this.statements.earlierInScope.get(next.workspace_id, next.memory_id, lane, now) as { id: string } | undefined;
    return this.statements.claim.get(leaseUntil, now, earlier?.id ?? next.id) as JobRow | undefined;
  }

  /** Moves every job to the lane its scope hash gives for `lanes` lanes. */
  relane(lanes: number): void {
    this.statements.relane.run(lanes, lanes);
  }

  /** The user scope of a stored memory, for a job queued without one. */
  memoryScope(workspaceId: string, memoryId: string): { agent_id: string | null; user_id: string | null } | undefined {
    return this.statements.scope.get(workspaceId, memoryId) as { agent_id: string | null; user_id: string | null } | undefined;
  }

  /** Gives a claim back without spending its attempt; only while that claim (its attempt count) still holds the job. */
  giveBack(id: string, attempts: number, runAfter: number, now: number): void {
    this.statements.later.run(runAfter, now, id, attempts);
  }

  fail(id: string, error: string, now: number): void {
    this.statements.failed.run(error, now, id);
  }

  retry(id: string, runAfter: number, error: string, now: number): void {
    this.statements.retry.run(runAfter, error, now, id);
  }

  /** Deletes the jobs of finished writes. */
  remove(ids: string[]): void {
    for (const id of ids) this.statements.remove.run(id);
  }

  /** Deletes the given jobs of a workspace, in one immediate transaction. */
  forget(workspaceId: string, ids: string[]): void {
    const del = this.db.prepare(`DELETE FROM jobs WHERE id = ? AND json_extract(payload, '$.workspaceId') = ?`);
    this.db.transaction(() => {
      for (const id of ids) del.run(id, workspaceId);
    }).immediate();
  }

  /** Memories still processing whose current version has no job (`jobIdOf` names a version's job). */
  orphans(): { id: string; workspace_id: string; version: number }[] {
    return this.db
      .prepare(
        `SELECT id, workspace_id, version FROM memories m WHERE status = 'processing' AND deleted_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = m.id || ':v' || m.version)`,
      )
      .all() as { id: string; workspace_id: string; version: number }[];
  }

  /** Job counts per state. */
  counts(): Record<string, number> {
    const rows = this.db.prepare(`SELECT state, COUNT(*) AS n FROM jobs GROUP BY state`).all() as { state: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.state, r.n]));
  }
}

/** A memory version's job: the id the orphan check (`orphans`) looks for. */
export const jobIdOf = (job: { memoryId: string; version: number }) => `${job.memoryId}:v${job.version}`;

function prepare(db: Database.Database) {
  return {
    insert: db.prepare(
      `INSERT OR IGNORE INTO jobs (id, queue, payload, state, attempts, run_after, created_at, updated_at, order_key, scope_hash, lane)
       VALUES (?, 'write', ?, 'pending', 0, ?, ?, ?, (SELECT COALESCE(MAX(order_key), 0) + 1 FROM jobs), ?, ?)`,
    ),
    // A lane's oldest ready job; the (lane, order_key) index makes this a short walk, whatever the backlog.
    next: db.prepare(
      `SELECT id, json_extract(payload, '$.workspaceId') AS workspace_id, json_extract(payload, '$.memoryId') AS memory_id
       FROM jobs INDEXED BY jobs_lane_order WHERE lane = ? AND state IN ('pending', 'running') AND run_after <= ?
       ORDER BY order_key LIMIT 1`,
    ),
    // The earliest unfinished write of the same user scope whose job is ready in the lane (the partial index of
    // processing writes: its cost does not grow with the scope's history).
    earlierInScope: db.prepare(
      `SELECT j.id FROM memories AS m0
       JOIN memories AS m INDEXED BY memories_processing
         ON m.workspace_id = m0.workspace_id AND m.user_id IS m0.user_id AND m.agent_id IS m0.agent_id
        AND m.status = 'processing' AND m.deleted_at IS NULL AND m.seq < m0.seq
       JOIN jobs AS j ON j.id = m.id || ':v' || m.version
       WHERE m0.workspace_id = ? AND m0.id = ? AND j.lane = ? AND j.state IN ('pending', 'running') AND j.run_after <= ?
       ORDER BY m.seq LIMIT 1`,
    ),
    claim: db.prepare(
      `UPDATE jobs SET state = 'running', run_after = ?, updated_at = ?, attempts = attempts + 1 WHERE id = ?
       RETURNING id, payload, attempts`,
    ),
    relane: db.prepare('UPDATE jobs SET lane = scope_hash % ? WHERE lane != scope_hash % ?'),
    scope: db.prepare('SELECT agent_id, user_id FROM memories WHERE workspace_id = ? AND id = ?'),
    // Only while the claim that is given back still holds the job.
    later: db.prepare(
      `UPDATE jobs SET state = 'pending', run_after = ?, attempts = attempts - 1, updated_at = ? WHERE id = ? AND state = 'running' AND attempts = ?`,
    ),
    failed: db.prepare(`UPDATE jobs SET state = 'failed', last_error = ?, updated_at = ? WHERE id = ?`),
    retry: db.prepare(`UPDATE jobs SET state = 'pending', run_after = ?, last_error = ?, updated_at = ? WHERE id = ?`),
    remove: db.prepare('DELETE FROM jobs WHERE id = ?'),
  };
}
