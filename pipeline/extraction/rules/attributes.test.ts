import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const shown = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-15T12:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('attributes named by a head noun, with or without "my"', () => {
  it('reads money attributes whatever their modifiers, keeping the period', () => {
    expect(shown("rent's gone up to £1,350 a month for a one-bed flat")).toEqual(['user pays_rent £1,350 a month']);
    expect(shown('holiday budget is 2 grand all in, flights included')).toEqual(['user budget 2 grand']);
    expect(shown('our monthly food budget is 600 euro for a family of five')).toEqual(['user budget 600 euro a month']);
    expect(shown('hourly rate is £12.60, basically minimum wage')).toEqual(['user salary £12.60 an hour']);
  });

  it('turns "from A to B" into the new value and the end of the old one', () => {
    expect(shown('salary went from 41k to 47k with the promotion')).toEqual(['user salary 47k', 'user NOT salary 41k']);
  });

  it('reads agent-note labels', () => {
    expect(shown('Grocery budget: $150/week')).toEqual(['user budget $150/week']);
    expect(shown('Favorite food: pho')).toEqual(['user favorite_food pho']);
  });

  it('names favourites by their category, also from superlatives', () => {
    expect(shown('fav band is Fontaines DC, saw them last year')).toEqual(['user favorite_music Fontaines DC']);
    expect(shown('Paddington 2 is the greatest film ever made')).toEqual(['user favorite_movie Paddington 2']);
  });

  it('does not read a verb "pay" as an attribute', () => {
    expect(shown('I pay 2100 a month for daycare')).not.toContain('user salary 2100 a month');
  });
});
