import type { Kind, SoakClient } from './client.js';
import type { Ledger } from './ledger.js';

/** Share of each kind in the traffic (erasures are rare: each one retires a user). */
const MIX: [Kind, number][] = [
  ['write', 34],
  ['batch', 5],
  ['search', 20],
  ['context', 20],
  ['update', 11],
  ['forget', 8],
  ['erase', 0.5],
];
const MIX_TOTAL = MIX.reduce((sum, [, w]) => sum + w, 0);
/** Past this many requests in flight the driver skips a tick instead of piling up (counted). */
const MAX_IN_FLIGHT = 64;

const CITIES = ['Porto', 'Lisbon', 'Madrid', 'Berlin', 'Oslo', 'Vienna', 'Dublin', 'Prague', 'Warsaw', 'Zurich'];
const COMPANIES = ['Sonae', 'Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Stark', 'Wayne'];
const PEOPLE = ['Ana', 'Bruno', 'Carla', 'Duarte', 'Eva', 'Filipe', 'Gina', 'Hugo'];
const FOODS = ['sushi', 'pizza', 'ramen', 'tapas', 'curry', 'salads'];
const TOPICS = ['home city', 'employer', 'family', 'favourite food', 'sister', 'work'];

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

/** A sentence with facts and entities in it, different enough from the last one to supersede some of them. */
function sentence(): string {
  return pick([
    () => `I live in ${pick(CITIES)}.`,
    () => `I work at ${pick(COMPANIES)} now.`,
    () => `My sister ${pick(PEOPLE)} lives in ${pick(CITIES)}.`,
    () => `I really like ${pick(FOODS)}.`,
    () => `I moved to ${pick(CITIES)} last year and joined ${pick(COMPANIES)}.`,
    () => `My friend ${pick(PEOPLE)} works at ${pick(COMPANIES)}.`,
  ])();
}

/**
 * Open-loop traffic: a request every 1000/rate ms whatever the answers do, until `stopAt`. Each kind's request
 * and what it records in the ledger when accepted.
 */
export class TrafficDriver {
  private inFlight = 0;
  skipped = 0;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly client: SoakClient,
    private readonly ledger: Ledger,
    private readonly ratePerSecond: number,
  ) {}

  async run(stopAt: number): Promise<void> {
    const interval = 1000 / this.ratePerSecond;
    const start = Date.now();
    for (let tick = 0; ; tick++) {
      const due = start + tick * interval;
      if (due >= stopAt) break;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (this.inFlight >= MAX_IN_FLIGHT) {
        this.skipped++;
        continue;
      }
      this.inFlight++;
      const request = this.one(this.chooseKind()).finally(() => {
        this.inFlight--;
        this.pending.delete(request);
      });
      this.pending.add(request);
    }
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private chooseKind(): Kind {
    let roll = Math.random() * MIX_TOTAL;
    for (const [kind, weight] of MIX) if ((roll -= weight) < 0) return kind;
    return 'write';
  }

  private async one(kind: Kind): Promise<void> {
    if (kind === 'write') return this.write();
    if (kind === 'batch') return this.batch();
    if (kind === 'search' || kind === 'context') return this.read(kind);
    if (kind === 'update' || kind === 'forget') return this.change(kind);
    return this.erase();
  }

  private async write(): Promise<void> {
    const { ledger } = this;
    const user = pick(ledger.users());
    const soakId = ledger.newSoakId();
    const res = await ledger.forUser(user, () => this.client.call('write', 'POST', '/v1/memories', { content: sentence(), user_id: user, metadata: { soak: soakId } }));
    if (!res) ledger.unknownOutcome.add(soakId);
    else if (res.status === 200) ledger.singles.set(res.body.id, { soakId, memoryId: res.body.id, userId: user, updates: 0, forgotten: false });
  }

  private async batch(): Promise<void> {
    const { ledger } = this;
    const user = pick(ledger.users());
    const soakIds = Array.from({ length: 2 + Math.floor(Math.random() * 9) }, () => ledger.newSoakId());
    const memories = soakIds.map((soak) => ({ content: sentence(), user_id: user, metadata: { soak } }));
    const res = await ledger.forUser(user, () => this.client.call('batch', 'POST', '/v1/batch', { memories }));
    if (!res) soakIds.forEach((id) => ledger.unknownOutcome.add(id));
    else if (res.status === 202) ledger.batches.push({ batchId: res.body.id, userId: user, soakIds });
  }

  private async read(kind: 'search' | 'context'): Promise<void> {
    const user = pick(this.ledger.users());
    const query = pick(TOPICS);
    await this.ledger.forUser(user, () =>
      kind === 'search'
        ? this.client.call(kind, 'POST', '/v1/memories/search', { query, user_id: user, limit: 10 })
        : this.client.call(kind, 'GET', `/v1/context?query=${encodeURIComponent(query)}&user_id=${encodeURIComponent(user)}`),
    );
  }

  private async change(kind: 'update' | 'forget'): Promise<void> {
    const { ledger } = this;
    const candidates = ledger.candidates();
    if (!candidates.length) return this.write();
    const target = pick(candidates);
    ledger.busy.add(target.memoryId);
    try {
      const path = `/v1/memories/${target.memoryId}`;
      const res = await ledger.forUser(target.userId, () =>
        kind === 'update' ? this.client.call(kind, 'PATCH', path, { content: sentence() }) : this.client.call(kind, 'DELETE', path),
      );
      if (res?.status === 200 && kind === 'update') target.updates++;
      if (res?.status === 200 && kind === 'forget') target.forgotten = true;
      if (!res) ledger.unknownOutcome.add(target.memoryId);
    } finally {
      ledger.busy.delete(target.memoryId);
    }
  }

  private async erase(): Promise<void> {
    const { ledger } = this;
    if (ledger.users().length < 2) return this.write();
    const user = pick(ledger.users());
    await ledger.retire(user);
    const res = await this.client.call('erase', 'DELETE', `/v1/users/${encodeURIComponent(user)}/memories`);
    if (res?.status === 200) ledger.erasedUsers.add(user);
  }
}
