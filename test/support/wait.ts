/** Polls `probe` until it returns a value other than `undefined`; throws after `timeoutMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
