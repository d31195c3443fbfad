import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient } from 'mongodb';
import { RequestStats, SoakClient } from './client.js';
import { runFaults } from './faults.js';
import { checkInvariants, unsettled } from './invariants.js';
import { Ledger } from './ledger.js';
import { sleep, SoakStack } from './stack.js';
import { TrafficDriver } from './traffic.js';

/**
 * `npm run soak -- --minutes N [--rate R] [--users U]`: mixed traffic at a steady rate against a production
 * deployment of its own while a worker is crashed, Redis restarted and Elasticsearch stopped; then, once the
 * pipeline has settled, every invariant checked in MongoDB and Elasticsearch. Prints one JSON summary on stdout
 * (progress on stderr) and exits 1 on any violation.
 */
const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    rate: { type: 'string', default: '4' },
    users: { type: 'string', default: '6' },
  },
});
const minutes = Number(values.minutes);
const rate = Number(values.rate);
const users = Number(values.users);
if (!(minutes > 0) || !(rate > 0) || !(users >= 2)) throw new Error('usage: npm run soak -- --minutes N [--rate requests/s] [--users U>=2]');

const began = Date.now();
const log = (line: string) => process.stderr.write(`[soak ${((Date.now() - began) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);

/**
 * Settling may take a while on a loaded machine: writes that failed during a fault wait out exponential backoffs, so
 * a little more load can push them into a later retry. A third of the traffic time, at least 5 minutes.
 */
const settleLimitMs = Math.max(5 * 60_000, (minutes * 60_000) / 3);

async function settle(env: Record<string, string>): Promise<{ settled: boolean; seconds: number; left: number }> {
  const started = Date.now();
  const mongo = await MongoClient.connect(env.MONGODB_URL, { serverSelectionTimeoutMS: 10_000 });
  try {
    for (;;) {
      const left = await unsettled(mongo.db(env.MONGODB_DB));
      const seconds = Math.round((Date.now() - started) / 1000);
      if (left === 0) return { settled: true, seconds, left };
      if (Date.now() - started > settleLimitMs) return { settled: false, seconds, left };
      await sleep(1000);
    }
  } finally {
    await mongo.close();
  }
}

async function main(): Promise<boolean> {
  log(`starting Redis, FerretDB, Elasticsearch, 2 API and 2 worker processes`);
  const stack = await SoakStack.start();
  const startupS = Math.round((Date.now() - began) / 1000);
  try {
    const key = stack.createKey('soak');
    const ledger = new Ledger(users);
    const client = new SoakClient(stack.apis.map((a) => a.url), key, new RequestStats());
    const driver = new TrafficDriver(client, ledger, rate);
    const trafficMs = minutes * 60_000;
    const trafficStart = Date.now();
    client.retryUntil = trafficStart + trafficMs + 5_000;
    log(`traffic: ${rate} requests/s for ${minutes} min over ${users} users`);
    const progress = setInterval(() => log(`${JSON.stringify(Object.fromEntries([...client.stats.byKind].map(([k, s]) => [k, s.accepted])))} accepted`), 60_000);
    const [faults] = await Promise.all([runFaults(stack, trafficMs, trafficStart, log), driver.run(trafficStart + trafficMs)]).finally(() => clearInterval(progress));
    const trafficS = Math.round((Date.now() - trafficStart) / 1000);
    log('traffic over; waiting for the pipeline to settle');
    const settled = await settle(stack.env);
    log(`settled: ${JSON.stringify(settled)}; checking invariants`);
    const invariants = await checkInvariants(stack.env, ledger);
    const ok = settled.settled && Object.values(invariants).every((v) => v.ok) && faults.every((f) => !f.error);
    const summary = {
      ok,
      minutes,
      rate_per_s: rate,
      machine: `${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GB`,
      date: new Date(began).toISOString(),
      seconds: { startup: startupS, traffic: trafficS, settle: settled.seconds, total: Math.round((Date.now() - began) / 1000) },
      faults,
      requests: client.stats.summary(),
      skipped_ticks: driver.skipped,
      accepted: {
        single_writes: ledger.singles.size,
        batches: ledger.batches.length,
        batch_items: ledger.batches.reduce((n, b) => n + b.soakIds.length, 0),
        updates: [...ledger.singles.values()].reduce((n, w) => n + w.updates, 0),
        forgets: [...ledger.singles.values()].filter((w) => w.forgotten).length,
        erasures: ledger.erasedUsers.size,
      },
      settled,
      invariants,
    };
    if (!ok) {
      const dir = mkdtempSync(join(tmpdir(), 'engram-soak-logs-'));
      stack.writeLogs(dir);
      log(`violations: process logs in ${dir}`);
    }
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return ok;
  } finally {
    await stack.close();
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error) => {
    log(String(error?.stack ?? error));
    process.exit(2);
  },
);
