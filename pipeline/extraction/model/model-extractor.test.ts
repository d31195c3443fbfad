import { describe, expect, it } from 'vitest';
import { normalizeObject } from '../normalize.js';
import { ModelFactExtractor } from './model-extractor.js';

/** These tests load the shipped model (models/extractor), as `npm start` does on a fresh clone. */
const extractor = new ModelFactExtractor();
const referenceTime = new Date('2024-06-15T12:00:00Z');
const extract = (content: string) => extractor.extractFacts({ content, referenceTime });
const summary = (facts: Awaited<ReturnType<typeof extract>>) =>
  facts.map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${normalizeObject(f.object)}`);

describe('ModelFactExtractor (the shipped int8 model)', () => {
  it('reads several facts from one message, with families and the raw relation', async () => {
    const facts = await extract('I live in Berlin and work at Siemens.');
    expect(summary(facts)).toEqual(expect.arrayContaining(['user lives_in berlin', 'user works_at siemens']));
    const home = facts.find((f) => f.predicate === 'lives_in')!;
    expect(home.family).toBe('places');
    expect(home.tense).toBe('current');
    expect(home.confidence).toBeGreaterThan(0.5);
  });

  it('reads an ending as a negated fact and a plan with its date', async () => {
    const ended = await extract('I sold my motorbike last week.');
    expect(ended.some((f) => f.predicate === 'owns' && f.negated)).toBe(true);
    const planned = await extract("We're moving to Lisbon on September 1st.");
    const move = planned.find((f) => f.predicate === 'lives_in');
    expect(move?.tense).toBe('planned');
    expect(move?.validFrom?.toISOString().slice(0, 10)).toBe('2024-09-01');
  });

  it('gives each of many concurrent messages its own facts, the same as one at a time', async () => {
    const messages = ['My sister Anna lives in Rome.', "I'm allergic to penicillin.", 'what is the capital of France?', 'I drive a Toyota Corolla.'];
    const alone = [];
    for (const m of messages) alone.push(summary(await extract(m)));
    const together = (await Promise.all(messages.map(extract))).map(summary);
    expect(together).toEqual(alone);
    expect(alone[2]).toEqual([]);
  });

  it('survives odd input within a bounded time and invents nothing from code, data or noise', async () => {
    const noise = [
      '```ts\nconst user = await db.users.find({ city: "Berlin" });\nconsole.log(user);\n```',
      'aGVsbG8gd29ybGQgdGhpcyBpcyBiYXNlNjQgZW5jb2RlZCBkYXRhIGZvciBhIHRlc3Q='.repeat(20),
      '🥳🥳🥳🔥🔥',
      '| col a | col b |\n|---|---|\n| 1 | 2 |',
      '',
    ];
    for (const content of noise) expect(summary(await extract(content)), content.slice(0, 40)).toEqual([]);
    const long = 'I went for a walk today and the weather was fine. '.repeat(320) + 'I live in Oslo.';
    expect(long.length).toBeGreaterThan(16_000);
    const started = performance.now();
    await extract(long);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
