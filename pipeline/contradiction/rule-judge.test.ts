import { describe, expect, it } from 'vitest';
import type { CandidateFact, IncomingFact } from '../types.js';
import { ANY_OBJECT } from '../extraction/taxonomy.js';
import { RuleContradictionJudge, compareSupersedeOrder, decideByRules } from './rule-judge.js';
import { createContradictionJudge } from './index.js';

const day = (d: string) => new Date(`${d}T00:00:00Z`);
const live = (id: string, predicate: string, object: string, validFrom: string, seq: number, subject = 'user'): CandidateFact => ({ id, subject, predicate, object, validFrom: day(validFrom), seq });
const incoming = (predicate: string, object: string, validFrom: string, seq: number, extra: Partial<IncomingFact> = {}): IncomingFact => ({
  subject: 'user', predicate, object, negated: false, validFrom: day(validFrom), seq, ...extra,
});

describe('rule judge: single-valued predicates', () => {
  it('inserts a different object and invalidates the older live value', () => {
    expect(decideByRules(incoming('lives_in', 'Munich', '2024-06-01', 2), [live('f1', 'lives_in', 'Berlin', '2024-01-01', 1)])).toEqual({ kind: 'insert', invalidate: ['f1'] });
  });

  it('invalidates every older live value when the store holds more than one', () => {
    const decision = decideByRules(incoming('works_at', 'Spotify', '2024-06-01', 9), [live('a', 'works_at', 'Google', '2023-01-01', 1), live('b', 'works_at', 'IBM', '2022-01-01', 2)]);
    expect(decision).toEqual({ kind: 'insert', invalidate: ['a', 'b'] });
  });

  it('inserts without invalidation when nothing is live', () => {
    expect(decideByRules(incoming('lives_in', 'Munich', '2024-06-01', 1), [])).toEqual({ kind: 'insert', invalidate: [] });
  });
});

describe('rule judge: confirmation', () => {
  it('confirms a live fact with the same normalised object instead of storing a copy', () => {
    expect(decideByRules(incoming('lives_in', 'the city of munich', '2024-06-01', 5), [live('f1', 'lives_in', 'Munich', '2024-01-01', 1)])).toEqual({ kind: 'confirm', factId: 'f1' });
  });

  it('confirms multi-valued facts too, and picks the oldest copy if there are several', () => {
    const decision = decideByRules(incoming('likes', 'Sushi', '2024-06-01', 9), [live('new', 'likes', 'sushi', '2024-03-01', 4), live('old', 'likes', 'sushi', '2024-01-01', 2)]);
    expect(decision).toEqual({ kind: 'confirm', factId: 'old' });
  });

  it('confirms even when the restatement is back-dated', () => {
    expect(decideByRules(incoming('lives_in', 'Munich', '2020-01-01', 5), [live('f1', 'lives_in', 'Munich', '2024-01-01', 1)])).toEqual({ kind: 'confirm', factId: 'f1' });
  });
});

describe('rule judge: multi-valued predicates', () => {
  it('does not invalidate a different object', () => {
    expect(decideByRules(incoming('likes', 'coffee', '2024-06-01', 2), [live('f1', 'likes', 'tea', '2024-01-01', 1)])).toEqual({ kind: 'insert', invalidate: [] });
  });

  it('invalidates the opposite predicate with the same object (likes X vs dislikes X)', () => {
    expect(decideByRules(incoming('dislikes', 'Coffee', '2024-06-01', 3), [live('f1', 'likes', 'coffee', '2024-01-01', 1), live('f2', 'likes', 'tea', '2024-01-01', 2)])).toEqual({
      kind: 'insert',
      invalidate: ['f1'],
    });
  });

  it('treats married_to / divorced_from as opposites', () => {
    expect(decideByRules(incoming('divorced_from', 'Maria', '2024-06-01', 3), [live('f1', 'married_to', 'Maria', '2020-01-01', 1)])).toEqual({ kind: 'insert', invalidate: ['f1'] });
  });
});

describe('rule judge: negation', () => {
  it('retracts the live fact it denies', () => {
    expect(decideByRules(incoming('eats', 'meat', '2024-06-01', 3, { negated: true }), [live('f1', 'eats', 'meat', '2024-01-01', 1), live('f2', 'eats', 'fish', '2024-01-01', 2)])).toEqual({
      kind: 'retract',
      invalidate: ['f1'],
    });
  });

  it('retracts with nothing to invalidate when no live fact matches', () => {
    expect(decideByRules(incoming('eats', 'pork', '2024-06-01', 3, { negated: true }), [live('f1', 'eats', 'meat', '2024-01-01', 1)])).toEqual({ kind: 'retract', invalidate: [] });
    expect(decideByRules(incoming('eats', 'pork', '2024-06-01', 3, { negated: true }), [])).toEqual({ kind: 'retract', invalidate: [] });
  });

  it('retracts every value of the predicate for the any-object marker ("I quit my job")', () => {
    expect(decideByRules(incoming('works_at', ANY_OBJECT, '2024-06-01', 3, { negated: true }), [live('f1', 'works_at', 'Siemens', '2024-01-01', 1)])).toEqual({ kind: 'retract', invalidate: ['f1'] });
  });

  it('does not retract a live fact that is newer than the denial', () => {
    expect(decideByRules(incoming('habit', 'smoking', '2015-01-01', 3, { negated: true }), [live('f1', 'habit', 'smoking', '2024-01-01', 1)])).toEqual({ kind: 'retract', invalidate: [] });
  });

  it('does not let a negated dislike touch a like', () => {
    expect(decideByRules(incoming('dislikes', 'jazz', '2024-06-01', 3, { negated: true }), [live('f1', 'likes', 'jazz', '2024-01-01', 1)])).toEqual({ kind: 'retract', invalidate: [] });
  });
});

describe('rule judge: back-dated facts', () => {
  it('stores a fact older than the conflicting live fact already closed at that fact\'s validFrom', () => {
    expect(decideByRules(incoming('lives_in', 'Berlin', '2019-01-01', 5), [live('f1', 'lives_in', 'Munich', '2024-01-01', 1)])).toEqual({ kind: 'insert_closed', closedAt: day('2024-01-01') });
  });

  it('breaks equal validFrom by write sequence', () => {
    expect(decideByRules(incoming('lives_in', 'Kiel', '2024-01-01', 5), [live('f1', 'lives_in', 'Bonn', '2024-01-01', 4)])).toEqual({ kind: 'insert', invalidate: ['f1'] });
    expect(decideByRules(incoming('lives_in', 'Kiel', '2024-01-01', 3), [live('f1', 'lives_in', 'Bonn', '2024-01-01', 4)])).toEqual({ kind: 'insert_closed', closedAt: day('2024-01-01') });
  });

  it('applies to opposites as well', () => {
    expect(decideByRules(incoming('likes', 'jazz', '2020-01-01', 5), [live('f1', 'dislikes', 'jazz', '2024-01-01', 1)])).toEqual({ kind: 'insert_closed', closedAt: day('2024-01-01') });
  });

  it('gives the same live value whatever the processing order', () => {
    const berlin = { predicate: 'lives_in', object: 'Berlin', validFrom: '2019-01-01', seq: 1 };
    const munich = { predicate: 'lives_in', object: 'Munich', validFrom: '2024-01-01', seq: 2 };
    // Berlin first, then Munich: Munich invalidates Berlin.
    expect(decideByRules(incoming(munich.predicate, munich.object, munich.validFrom, munich.seq), [live('b', berlin.predicate, berlin.object, berlin.validFrom, berlin.seq)])).toEqual({ kind: 'insert', invalidate: ['b'] });
    // Munich first, then Berlin: Berlin is stored closed; Munich stays live either way.
    expect(decideByRules(incoming(berlin.predicate, berlin.object, berlin.validFrom, berlin.seq), [live('m', munich.predicate, munich.object, munich.validFrom, munich.seq)])).toEqual({ kind: 'insert_closed', closedAt: day('2024-01-01') });
  });
});

describe('rule judge: past and planned tense', () => {
  it('stores a past fact closed without touching the different current value', () => {
    expect(decideByRules(incoming('lives_in', 'Paris', '2024-06-01', 5, { tense: 'past' }), [live('f1', 'lives_in', 'Munich', '2024-01-01', 1)])).toEqual({ kind: 'insert_closed', closedAt: day('2024-06-01') });
  });

  it('closes a past fact at its stated end', () => {
    expect(decideByRules(incoming('works_at', 'IBM', '2024-06-01', 5, { tense: 'past', validTo: day('2020-01-01') }), [])).toEqual({ kind: 'insert_closed', closedAt: day('2020-01-01') });
  });

  it('ends a live copy of the same value ("I used to live in Paris")', () => {
    expect(decideByRules(incoming('lives_in', 'Paris', '2024-06-01', 5, { tense: 'past' }), [live('f1', 'lives_in', 'Paris', '2023-01-01', 1)])).toEqual({ kind: 'retract', invalidate: ['f1'] });
  });

  it('keeps a later stint of the same value that began after the past one ended', () => {
    expect(decideByRules(incoming('lives_in', 'Berlin', '2024-06-01', 5, { tense: 'past', validTo: day('2010-01-01') }), [live('f1', 'lives_in', 'Berlin', '2020-01-01', 1)])).toEqual({
      kind: 'insert_closed',
      closedAt: day('2010-01-01'),
    });
  });

  it('treats a planned fact like a current one dated at its planned start', () => {
    expect(decideByRules(incoming('lives_in', 'Rome', '2024-07-15', 5, { tense: 'planned' }), [live('f1', 'lives_in', 'Berlin', '2024-01-01', 1)])).toEqual({ kind: 'insert', invalidate: ['f1'] });
  });
});

describe('rule judge: defensive filtering', () => {
  it('ignores candidates of another subject or an unrelated predicate', () => {
    const candidates = [live('x', 'lives_in', 'Rome', '2024-01-01', 1, 'Anna'), live('y', 'works_at', 'Google', '2024-01-01', 2)];
    expect(decideByRules(incoming('lives_in', 'Munich', '2024-06-01', 5), candidates)).toEqual({ kind: 'insert', invalidate: [] });
  });

  it('compares subjects case-insensitively', () => {
    const decision = decideByRules({ ...incoming('lives_in', 'Milan', '2024-06-01', 5), subject: 'anna' }, [live('x', 'lives_in', 'Rome', '2024-01-01', 1, 'Anna')]);
    expect(decision).toEqual({ kind: 'insert', invalidate: ['x'] });
  });
});

describe('supersede order and factory', () => {
  it('orders by validFrom, then seq', () => {
    expect(compareSupersedeOrder({ validFrom: day('2024-01-01'), seq: 9 }, { validFrom: day('2024-02-01'), seq: 1 })).toBeLessThan(0);
    expect(compareSupersedeOrder({ validFrom: day('2024-01-01'), seq: 2 }, { validFrom: day('2024-01-01'), seq: 1 })).toBeGreaterThan(0);
  });

  it('the class and the default factory decide like the function', async () => {
    const judge = createContradictionJudge({ JUDGE: 'rules', JUDGE_MODEL: 'unused' });
    expect(judge).toBeInstanceOf(RuleContradictionJudge);
    await expect(judge.decide(incoming('lives_in', 'Munich', '2024-06-01', 2), [live('f1', 'lives_in', 'Berlin', '2024-01-01', 1)])).resolves.toEqual({ kind: 'insert', invalidate: ['f1'] });
  });
});

describe('rule judge: denials that name the thing briefly', () => {
  it('retracts the live fact whose name contains every word of the denial, and nothing else', () => {
    const stored = [live('a', 'works_at', "Guy's Hospital", '2022-01-01', 1), live('b', 'works_at', 'Evelina Hospital', '2023-01-01', 2)];
    expect(decideByRules(incoming('works_at', "Guy's", '2024-03-01', 3, { negated: true }), stored)).toEqual({ kind: 'retract', invalidate: ['a'] });
  });

  it('ending ownership also ends driving the same vehicle', () => {
    const stored = [live('o', 'owns', 'VW Golf', '2023-01-01', 1), live('d', 'drives', 'VW Golf', '2023-01-01', 1), live('t', 'drives', 'Tesla', '2023-01-01', 1)];
    expect(decideByRules(incoming('owns', 'Golf', '2024-04-01', 2, { negated: true }), stored)).toEqual({ kind: 'retract', invalidate: ['o', 'd'] });
  });
});

describe('a denial naming the thing more fully than the stored fact', () => {
  it('"sold the Whitby cottage" ends a plain "owns cottage", not "owns car"', () => {
    const d = decideByRules(incoming('owns', 'Whitby cottage', '2024-05-01', 3, { negated: true }), [live('c', 'owns', 'cottage', '2023-01-01', 1), live('v', 'owns', 'car', '2023-01-01', 1)]);
    expect(d).toEqual({ kind: 'retract', invalidate: ['c'] });
  });

  it('a different head noun is another thing', () => {
    const d = decideByRules(incoming('owns', 'Whitby cottage', '2024-05-01', 3, { negated: true }), [live('f', 'owns', 'flat', '2023-01-01', 1)]);
    expect(d).toEqual({ kind: 'retract', invalidate: [] });
  });
});

describe('a visit completes the planned trip', () => {
  it('"visited Oslo" ends a trip to Oslo that has begun, not one to Bergen', () => {
    const d = decideByRules(incoming('visited', 'Oslo', '2024-05-20', 4), [live('t', 'trip_to', 'Oslo', '2024-05-10', 2), live('b', 'trip_to', 'Bergen', '2024-05-10', 2)]);
    expect(d).toEqual({ kind: 'insert', invalidate: ['t'] });
  });
});

describe('a visit fulfils the wish to go', () => {
  it('"visited Lima" ends wanting to visit Lima, and leaves the other wishes', () => {
    const d = decideByRules(incoming('visited', 'Lima', '2024-05-20', 4), [live('w', 'wants_to_visit', 'Lima', '2023-01-10', 2), live('x', 'wants_to_visit', 'Cusco', '2023-01-10', 2)]);
    expect(d).toEqual({ kind: 'insert', invalidate: ['w'] });
  });
});

describe('a denial of the whole kind', () => {
  it('ends every live value but not a plan still to come', () => {
    const now = day('2024-06-01');
    const d = decideByRules(incoming('has_pet', ANY_OBJECT, '2024-06-01', 9, { negated: true, referenceTime: now }), [
      live('cat', 'has_pet', 'cat', '2021-01-01', 1),
      live('fish', 'has_pet', 'goldfish', '2022-01-01', 2),
      live('pup', 'has_pet', 'puppy', '2024-08-10', 3),
    ]);
    expect(d).toEqual({ kind: 'retract', invalidate: ['cat', 'fish'] });
  });
});
