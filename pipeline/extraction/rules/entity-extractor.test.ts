import { describe, expect, it } from 'vitest';
import { createEntityExtractor } from '../index.js';
import { RuleEntityExtractor, extractEntitiesWithRules } from './entity-extractor.js';

const REF = new Date('2024-06-15T12:00:00Z');
const entities = (content: string) => extractEntitiesWithRules({ content, referenceTime: REF });
const byName = (content: string) => Object.fromEntries(entities(content).map((e) => [e.name, e]));

describe('rule entity extractor', () => {
  it('finds people, places and organisations with canonical keys', () => {
    const found = byName('Tom works at Google in Zurich.');
    expect(found.Tom).toEqual({ name: 'Tom', canonical: 'tom', type: 'person', aliases: [] });
    expect(found.Google).toMatchObject({ canonical: 'google', type: 'organization' });
    expect(found.Zurich).toMatchObject({ canonical: 'zurich', type: 'place' });
  });

  it('gives possessive relatives the relation as alias', () => {
    const found = byName('My sister Anna lives in Rome and works at Siemens.');
    expect(found.Anna).toEqual({ name: 'Anna', canonical: 'anna', type: 'person', aliases: ['my sister', 'sister'] });
    expect(found.Rome.type).toBe('place');
    expect(found.Siemens.type).toBe('organization');
  });

  it('adds things the user owns or has preferences about, and named pets', () => {
    const found = byName('I bought a Tesla and I love sushi. We have a dog named Rex.');
    expect(found.Tesla.type).toBe('thing');
    expect(found.sushi.type).toBe('thing');
    expect(found.Rex).toMatchObject({ type: 'thing', aliases: ['my dog', 'dog'] });
  });

  it('merges repeated mentions into one entity', () => {
    const list = entities('Anna lives in Rome. My sister Anna loves Rome.');
    expect(list.filter((e) => e.canonical === 'anna')).toHaveLength(1);
    expect(list.filter((e) => e.canonical === 'rome')).toHaveLength(1);
    expect(list.find((e) => e.canonical === 'anna')!.aliases).toContain('sister');
  });

  it('ignores what the assistant says in a transcript', () => {
    const list = entities('user: My wife Maria and I moved to Lisbon.\nassistant: Say hi to Maria! I visited Porto last year.');
    expect(list.map((e) => e.name).sort()).toEqual(['Lisbon', 'Maria']);
    expect(list.find((e) => e.name === 'Maria')!.aliases).toEqual(['my wife', 'wife']);
  });

  it('returns nothing for small talk', async () => {
    expect(entities('ok thanks')).toEqual([]);
    const extractor = createEntityExtractor({ EXTRACTOR: 'openai', EXTRACTION_MODEL: 'unused' });
    expect(extractor).toBeInstanceOf(RuleEntityExtractor);
    await expect(extractor.extractEntities({ content: 'lol', referenceTime: REF })).resolves.toEqual([]);
  });
});
