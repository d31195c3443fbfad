import type { Plan } from '../storage/types.js';

export interface PlanLimits {
  agents: number;
  monthlyWrites: number;
  monthlyQueries: number;
}

/** The spec's Limits table. */
export const PLANS: Record<Plan, PlanLimits> = {
  hobby: { agents: 2, monthlyWrites: 1_000, monthlyQueries: 25_000 },
  developer: { agents: 10, monthlyWrites: 5_000, monthlyQueries: 250_000 },
  team: { agents: 100, monthlyWrites: 25_000, monthlyQueries: 1_000_000 },
  scale: { agents: 500, monthlyWrites: 75_000, monthlyQueries: 10_000_000 },
};

export const PLAN_NAMES = Object.keys(PLANS) as Plan[];

/** Soft grace above the quota before requests are refused. */
export const QUOTA_GRACE = 0.1;

export const withGrace = (quota: number) => Math.floor(quota * (1 + QUOTA_GRACE));
