import nlp from 'compromise';
import { describe, expect, it } from 'vitest';
import { findNamedEntities, mayName } from './named-entities.js';

/** What the entity extractor used before: compromise's three queries on the whole text. */
function compromiseEntities(text: string): string[] {
  const doc = nlp(text);
  return [
    ...(doc.people().out('array') as string[]).map((n) => `person:${n}`),
    ...(doc.places().out('array') as string[]).map((n) => `place:${n}`),
    ...(doc.organizations().out('array') as string[]).map((n) => `organization:${n}`),
  ];
}
const found = (text: string) => findNamedEntities(text).map((e) => `${e.type}:${e.name}`);

describe('named entities', () => {
  it.each([
    'Tom works at Google in Zurich.',
    'My sister Anna lives in Rome, Italy and works at Siemens.',
    'i met john in paris with my friend sarah',
    'We moved to new york last year. It is loud.',
    'Okonkwo ltd hired me.',
    'I love Paris, France and Berlin, Germany. Also Asia, Europe.',
    "Anna's brother Tom, Maria and Dr. Smith came over.",
    'Mark said hi. Will went home. Grace is nice.',
    'Jon: Thanks! It has been my stress-buster since childhood.',
    'We need a good dance floor with enough space for me & my crew.',
    'Caroline: Hey Mel! How are the kids? Congrats on the new job!',
    'THE UNITED NATIONS MET IN GENEVA',
    'ok thanks',
  ])('finds what compromise finds: %s', (text) => {
    expect(found(text)).toEqual(compromiseEntities(text));
  });

  it('leaves the tagger out of sentences that cannot name anything', () => {
    expect(mayName("You're doing great and I'm proud of you.")).toBe(false);
    expect(mayName('Congrats on the new job!')).toBe(false);
    expect(mayName('The weather was nice so we went for a walk.')).toBe(false);
    expect(mayName('We went for a walk with Anna.')).toBe(true);
    expect(mayName('Grace is nice.')).toBe(true);
    expect(mayName('we flew to new york')).toBe(true);
  });
});
