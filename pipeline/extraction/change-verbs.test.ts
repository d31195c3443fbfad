import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './rules/fact-extractor.js';
import { changeSurfaces } from './change-verbs.js';
import { lookupPredicate } from './taxonomy.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('verbs of change shared by a kind of relation', () => {
  it('start what one can have: pets and possessions got, brought home, taken in, picked up', () => {
    expect(described('we brought home a rescue greyhound on saturday')).toContain('has_pet greyhound');
    expect(described("We've taken in a foster kitten")).toContain('has_pet kitten');
    expect(described('I picked up a used Brompton last week')).toContain('owns Brompton');
  });
  it('end it: parted with, traded in, put down', () => {
    expect(described('I finally parted with my old Vespa')).toContain('NOT owns Vespa');
    expect(described('we traded in the Zafira')).toContain('NOT owns Zafira');
  });
  it('start and end pastimes', () => {
    expect(described("I've taken up bouldering")).toContain('hobby bouldering');
    expect(described('I gave up pilates when the studio shut')).toContain('NOT hobby pilates');
  });
  it('are derived only for the classes the predicate has, and never twice', () => {
    const owns = lookupPredicate('owns')!;
    expect(owns.surfaces.filter((s) => s.phrase === 'buy')).toHaveLength(1);
    expect(changeSurfaces([{ phrase: 'live in', aspect: 'state', objectClass: 'place' }])).toEqual([]);
  });
  it('name the breed rather than the age word', () => {
    expect(described('We got a beagle puppy')).toContain('has_pet beagle');
  });
});
