/** Runs each piece of work after the one before it has settled; one result per piece, in order, as Promise.allSettled. */
export async function settledInTurn<T>(work: (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = [];
  for (const run of work) {
    results.push(await run().then((value) => ({ status: 'fulfilled', value }) as const, (reason: unknown) => ({ status: 'rejected', reason }) as const));
  }
  return results;
}
