/** ISO 8601 UTC with milliseconds. */
export const nowIso = () => new Date().toISOString();

/** Strictly after `previous`, so consecutive updates always change `updated_at`. */
export function nextTimestamp(previous: string): string {
  const now = Date.now();
  const prev = Date.parse(previous);
  return new Date(Number.isNaN(prev) ? now : Math.max(now, prev + 1)).toISOString();
}

/** Year-month of the billing cycle (calendar month, UTC). */
export const billingPeriod = (at = new Date()) => at.toISOString().slice(0, 7);
