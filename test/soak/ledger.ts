/**
 * What the service accepted (2xx), as the client knows it: the invariants are checked against this.
 * Every write carries `metadata.soak`, one id per logical write (kept across its retries), so a write stored twice
 * or stored although it was refused is visible in MongoDB.
 */
export interface SingleWrite {
  soakId: string;
  memoryId: string;
  userId: string;
  /** Accepted PATCHes. */
  updates: number;
  forgotten: boolean;
}

export interface BatchWrite {
  batchId: string;
  userId: string;
  soakIds: string[];
}

export class Ledger {
  private counter = 0;
  readonly singles = new Map<string, SingleWrite>();
  readonly batches: BatchWrite[] = [];
  /** Soak ids of writes, and memory ids of updates and forgets, that got no answer at all: applied or not, either is correct. */
  readonly unknownOutcome = new Set<string>();
  readonly erasedUsers = new Set<string>();
  /** Users that may be written to, and the number of requests of theirs in flight. */
  readonly liveUsers = new Map<string, number>();
  private readonly retiring = new Set<string>();
  private nextUser = 0;
  /** Memories an update or forget is in flight for: one operation per memory at a time. */
  readonly busy = new Set<string>();

  constructor(userCount: number) {
    for (let i = 0; i < userCount; i++) this.addUser();
  }

  newSoakId(): string {
    return `s${(this.counter++).toString(36)}`;
  }

  addUser(): string {
    const user = `user-${this.nextUser++}`;
    this.liveUsers.set(user, 0);
    return user;
  }

  /** Users new requests may go to. */
  users(): string[] {
    return [...this.liveUsers.keys()].filter((u) => !this.retiring.has(u));
  }

  /** Memories an update or forget may target: accepted single writes of live users, not forgotten, not busy. */
  candidates(): SingleWrite[] {
    return [...this.singles.values()].filter((w) => !w.forgotten && !this.busy.has(w.memoryId) && this.liveUsers.has(w.userId) && !this.retiring.has(w.userId));
  }

  /** Runs `op` counted as in flight for `user`, so that an erasure of the user waits for it. */
  async forUser<T>(user: string, op: () => Promise<T>): Promise<T> {
    this.liveUsers.set(user, (this.liveUsers.get(user) ?? 0) + 1);
    try {
      return await op();
    } finally {
      if (this.liveUsers.has(user)) this.liveUsers.set(user, this.liveUsers.get(user)! - 1);
    }
  }

  /** Takes the user out of the traffic (a fresh one replaces it) once nothing of theirs is in flight. */
  async retire(user: string): Promise<void> {
    this.retiring.add(user);
    while (this.liveUsers.get(user)! > 0) await new Promise((r) => setTimeout(r, 50));
    this.liveUsers.delete(user);
    this.retiring.delete(user);
    this.addUser();
  }
}
