import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';
import { normalizeObject } from '../normalize.js';
import { decideByRules, namesSameThing } from '../../contradiction/rule-judge.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('a pet and its name', () => {
  it('are stored together, the name in parentheses', () => {
    expect(described('we have a ginger cat named Marmalade')).toContain('has_pet cat (Marmalade)');
    expect(described('Our rabbit, Clover, hates the rain')).toContain('has_pet rabbit (Clover)');
    expect(described('Pickles the hamster escaped again')).toEqual([]);
  });
  it('compare by kind: the name is no part of what the pet is', () => {
    expect(normalizeObject('cat (Marmalade)')).toBe('cat');
  });
  it('lose the pet when the name is lost', () => {
    expect(described('Marmalade passed away last night')).toEqual(['NOT has_pet Marmalade']);
    expect(described('We lost Clover at the weekend.')).toEqual(['NOT has_pet Clover']);
  });
  it('never take a relative for a pet', () => {
    expect(described('Grandad passed away in March')).toEqual([]);
  });
});

describe('the judge ends a pet denied by its name', () => {
  it('matches the name the stored object carries, and only that pet', () => {
    expect(namesSameThing('cat (Marmalade)', 'Marmalade')).toBe(true);
    const d = decideByRules(
      { subject: 'user', predicate: 'has_pet', object: 'Marmalade', negated: true, validFrom: new Date('2024-03-10'), seq: 5 },
      [
        { id: 'm', subject: 'user', predicate: 'has_pet', object: 'cat (Marmalade)', validFrom: new Date('2023-01-01'), seq: 1 },
        { id: 'c', subject: 'user', predicate: 'has_pet', object: 'rabbit (Clover)', validFrom: new Date('2023-01-01'), seq: 2 },
      ],
    );
    expect(d).toEqual({ kind: 'retract', invalidate: ['m'] });
  });
});
