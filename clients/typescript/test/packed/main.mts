// Compiled with `tsc --strict` in a temporary project that installed the packed @engram/client, then run against a fresh server.
import { Engram, EngramError, NotFoundError, type BatchProgress, type Fact, type Memory } from '@engram/client';

declare const process: { env: Record<string, string | undefined>; exitCode?: number };

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

const engram = new Engram({ baseUrl: process.env.ENGRAM_URL!, apiKey: process.env.ENGRAM_API_KEY! });
const user = 'packed-user';

const added: Memory = await engram.memories.add({ content: 'I live in Berlin and work at Siemens.', user_id: user, timestamp: '2020-01-01T00:00:00Z' });
check(added.id.startsWith('mem_'), 'add returns a mem_ id');
const ready: Memory = await engram.waitUntilReady(added.id);
check(ready.status === 'ready', 'waitUntilReady resolves ready');
check(ready.facts.some((f) => f.predicate === 'lives_in' && f.object === 'Berlin'), 'the facts are extracted');
console.log('ok add + waitUntilReady');

const { results } = await engram.search({ query: 'Berlin', user_id: user, limit: 3 });
check(results[0]?.id === added.id, 'search finds the memory');
console.log('ok search');

const reports: BatchProgress[] = [];
const batch = await engram.memories.addBatch(
  [
    { content: 'I moved to Munich.', user_id: user, timestamp: new Date('2022-01-01T00:00:00Z') },
    { content: 'I like chess.', user_id: user },
  ],
  { onProgress: (p) => reports.push(p) },
);
check(batch.imported === 2 && batch.failed === 0, 'the batch imports both items');
check(reports.at(-1)?.done === true, 'the batch reports progress to the end');
console.log('ok batch');

const context = await engram.context({ query: 'where does the user live', user_id: user });
check(context.context.includes('Munich') && context.sources.length > 0, 'context names the new city');
console.log('ok context');

const past: Fact[] = (await engram.facts.list({ user_id: user, predicate: 'lives_in', as_of: new Date('2021-01-01T00:00:00Z') })).facts;
const present: Fact[] = (await engram.facts.list({ user_id: user, predicate: 'lives_in' })).facts;
check(past.map((f) => f.object).join() === 'Berlin', `as_of 2021 answers Berlin, not ${past.map((f) => f.object)}`);
check(present.map((f) => f.object).join() === 'Munich', `now answers Munich, not ${present.map((f) => f.object)}`);
console.log('ok facts as_of');

const erased = await engram.users.erase(user);
check(erased.memories_forgotten === 3 && erased.audit_id.startsWith('aud_'), 'erasure forgets the three memories');
const after = await engram.memories.get(added.id).catch((e: unknown) => e);
check(after instanceof NotFoundError && after instanceof EngramError && after.code === 'not_found', 'an erased memory is a NotFoundError');
check((await engram.facts.list({ user_id: user })).total === 0, 'no facts are left');
console.log('ok erasure');
console.log('ALL OK');
