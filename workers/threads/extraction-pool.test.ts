import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createEntityExtractor, createFactExtractor } from '../../pipeline/extraction/index.js';
import { ExtractionPool } from './extraction-pool.js';

const config = loadConfig({});
const texts = [
  'I moved to Lisbon in March 2021 and work at Siemens now.',
  'My sister Anna is getting married on 10 May.',
  'Caroline: I went to the LGBTQ support group yesterday and it was so powerful.',
  'We adopted a dog called Biscuit last summer.',
];

describe('ExtractionPool', () => {
  const pool = new ExtractionPool(config, 2);
  afterAll(() => pool.close());

  it('extracts in its threads exactly what the extractors give on this thread, dates included', async () => {
    const entities = createEntityExtractor(config);
    const facts = createFactExtractor(config);
    for (const content of texts) {
      const input = { content, referenceTime: new Date('2024-06-01T12:00:00Z') };
      const [pooledFacts, pooledEntities] = await Promise.all([pool.extractFacts(input), pool.extractEntities(input)]);
      expect(pooledFacts).toEqual(await facts.extractFacts(input));
      expect(pooledEntities).toEqual(await entities.extractEntities(input));
      for (const fact of pooledFacts) expect(fact.validFrom === null || fact.validFrom instanceof Date).toBe(true);
    }
  });

  it('hands the work to a thread: the calling thread is free while it extracts', async () => {
    const long = (round: number) => ({
      content: Array.from({ length: 40 }, (_, i) => `${texts[i % texts.length]} (${round}-${i})`).join(' '),
      referenceTime: new Date('2024-06-01T12:00:00Z'),
    });
    await pool.extractFacts(long(0)); // threads loaded and warm
    const onThisThread = createFactExtractor(config);
    let started = performance.now();
    await onThisThread.extractFacts(long(1));
    const inline = performance.now() - started;
    started = performance.now();
    const pending = pool.extractFacts(long(2));
    const handOff = performance.now() - started;
    expect((await pending).length).toBeGreaterThan(0);
    expect(handOff).toBeLessThan(inline / 5);
  });
});
