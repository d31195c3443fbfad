import type Database from 'better-sqlite3';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Plan } from '../storage/types.js';
import { asUrgentWrite } from '../storage/sqlite/write-lock.js';
import { billingPeriod } from './clock.js';
import { countersUnavailable, quotaExceeded, rateLimited, storageFull } from './errors.js';
import { isStorageFull } from './outages.js';
import { PLANS, withGrace } from './plans.js';

type QuotaKind = 'write' | 'query';

/** Where counters live: Redis when configured (shared by every API process), else the embedded database. */
export type CounterBackend = { kind: 'redis'; client: Redis } | { kind: 'sqlite'; db: Database.Database } | { kind: 'memory' };

const QUOTA_WINDOW_SECONDS = 40 * 24 * 3600; // keys are per calendar month; this only bounds their lifetime

/**
 * Per-key per-second rate limit and per-workspace monthly quotas, on
 * rate-limiter-flexible so the counting logic is a maintained library's.
 */
export class UsageLimits {
  private readonly rate: RateLimiterAbstract;
  private readonly quotas = new Map<string, RateLimiterAbstract>();

  /**
   * `onCountersDown` hears of each request let through uncounted: while Redis is unreachable the per-second limit
   * and the query quota are not enforced, so reads of stored data keep working; writes are refused (see `consume`).
   */
  constructor(
    private readonly backend: CounterBackend,
    ratePerSecond: number,
    private readonly onCountersDown: (error: unknown) => void = () => undefined,
  ) {
    this.rate = this.limiter('rate', ratePerSecond, 1, /* durable */ false);
  }

  private limiter(keyPrefix: string, points: number, duration: number, durable: boolean): RateLimiterAbstract {
    const b = this.backend;
    if (b.kind === 'redis') return new RateLimiterRedis({ storeClient: b.client, keyPrefix: `engram:${keyPrefix}`, points, duration });
    if (b.kind === 'sqlite' && durable) {
      return new RateLimiterSQLite({
        storeClient: b.db,
        storeType: 'better-sqlite3',
        tableName: 'usage_counters',
        tableCreated: true, // by the embedded store's migration
        keyPrefix,
        points,
        duration,
      });
    }
    return new RateLimiterMemory({ keyPrefix, points, duration });
  }

  private quota(kind: QuotaKind, plan: Plan): RateLimiterAbstract {
    const id = `${kind}:${plan}`;
    let limiter = this.quotas.get(id);
    if (!limiter) {
      const quota = kind === 'write' ? PLANS[plan].monthlyWrites : PLANS[plan].monthlyQueries;
      limiter = this.limiter(`quota_${kind}`, withGrace(quota), QUOTA_WINDOW_SECONDS, true);
      this.quotas.set(id, limiter);
    }
    return limiter;
  }

  /** Throws 429 rate_limit_exceeded with Retry-After when the key exceeds its per-second budget; lets the request through when the counters are down. */
  async checkRate(keyId: string): Promise<void> {
    try {
      await this.rate.consume(keyId, 1);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
      this.onCountersDown(error);
    }
  }

  /** A durable count in the embedded database waits for its write lock inside SQLite: as an urgent write, so it waits least. */
  private counting<T>(work: () => Promise<T>): Promise<T> {
    return this.backend.kind === 'sqlite' ? asUrgentWrite(this.backend.db, work) : work();
  }

  /**
   * Consumes `points` from a monthly quota (all or nothing); throws 429 quota_exceeded past the grace. When the
   * counters are down a write is refused (503; 507 on a full disk) and a query goes through uncounted.
   */
  async consume(kind: QuotaKind, workspaceId: string, plan: Plan, points = 1): Promise<void> {
    const limiter = this.quota(kind, plan);
    const key = `${workspaceId}:${billingPeriod()}`;
    try {
      await this.counting(() => limiter.consume(key, points));
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        // A refused request must not eat into what is left.
        await limiter.reward(key, points).catch(() => undefined);
        throw quotaExceeded(kind, kind === 'write' ? PLANS[plan].monthlyWrites : PLANS[plan].monthlyQueries);
      }
      if (kind === 'query') return this.onCountersDown(error);
      throw isStorageFull(error) ? storageFull() : countersUnavailable();
    }
  }

  /** Gives points back, e.g. when a counted write turned out invalid. */
  async refund(kind: QuotaKind, workspaceId: string, plan: Plan, points = 1): Promise<void> {
    await this.quota(kind, plan).reward(`${workspaceId}:${billingPeriod()}`, points);
  }

  async used(kind: QuotaKind, workspaceId: string, plan: Plan): Promise<number> {
    const res = await this.quota(kind, plan).get(`${workspaceId}:${billingPeriod()}`);
    return res?.consumedPoints ?? 0;
  }
}
