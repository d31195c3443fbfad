import { sleep, type SoakStack } from './stack.js';

export type FaultKind = 'worker_crash' | 'redis_restart' | 'elasticsearch_stop';

export interface FaultRecord {
  kind: FaultKind;
  /** Seconds after the traffic started. */
  at_s: number;
  /** Until the deployment was whole again (replacement worker ready, server answering). */
  took_s: number;
  error?: string;
}

const ELASTICSEARCH_DOWN_MS = 20_000;
const REDIS_DOWN_MS = 3_000;
/** One round of faults per this much traffic (at least one round). */
const ROUND_MS = 10 * 60_000;

/**
 * The faults, spread evenly over the first 80 % of the traffic so that the last part runs on a whole deployment:
 * each round stops Elasticsearch for 20 s, restarts Redis and crashes a worker, in that order, one at a time.
 * The Elasticsearch stop comes first because its recovery is the slowest: writes that failed while it was down
 * wait out exponential backoffs, which the rest of the traffic time absorbs.
 */
export function faultPlan(trafficMs: number): { kind: FaultKind; atMs: number }[] {
  const rounds = Math.max(1, Math.round(trafficMs / ROUND_MS));
  const kinds: FaultKind[] = ['elasticsearch_stop', 'redis_restart', 'worker_crash'];
  const slots = rounds * kinds.length;
  const span = trafficMs * 0.8;
  return Array.from({ length: slots }, (_, i) => ({ kind: kinds[i % kinds.length], atMs: Math.round(((i + 0.5) * span) / slots) }));
}

export async function runFaults(stack: SoakStack, trafficMs: number, startedAt: number, log: (line: string) => void): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  for (const { kind, atMs } of faultPlan(trafficMs)) {
    const wait = startedAt + atMs - Date.now();
    if (wait > 0) await sleep(wait);
    const began = Date.now();
    log(`fault: ${kind}`);
    const record: FaultRecord = { kind, at_s: Math.round((began - startedAt) / 1000), took_s: 0 };
    try {
      if (kind === 'worker_crash') await stack.crashWorker();
      else if (kind === 'redis_restart') await stack.restartRedis(REDIS_DOWN_MS);
      else await stack.stopElasticsearch(ELASTICSEARCH_DOWN_MS);
    } catch (error) {
      record.error = String(error);
    }
    record.took_s = Math.round((Date.now() - began) / 100) / 10;
    log(`fault: ${kind} over after ${record.took_s} s`);
    records.push(record);
  }
  return records;
}
