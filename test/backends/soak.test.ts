import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * CI's soak: `npm run soak -- --minutes 2` as its own process (its own Redis, FerretDB and Elasticsearch, so it
 * disturbs no other file), which exits 0 only when every invariant holds.
 */
it('a 2-minute soak under faults loses, duplicates and mismatches nothing', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test', 'soak', 'main.ts'), '--minutes', '2'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`soak exited with ${code}\n${stderr.slice(-4000)}\n${stdout.slice(-8000)}`);
  const summary = JSON.parse(stdout);
  console.log(`soak: ${JSON.stringify({ seconds: summary.seconds, accepted: summary.accepted, settled: summary.settled })}`);
  expect(summary.ok).toBe(true);
  expect(summary.accepted.single_writes).toBeGreaterThan(0);
  expect(summary.faults.map((f: { kind: string }) => f.kind)).toEqual(['elasticsearch_stop', 'redis_restart', 'worker_crash']);
}, 15 * 60_000);
