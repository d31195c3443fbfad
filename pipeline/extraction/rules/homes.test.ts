import { describe, expect, it } from 'vitest';
import { homeFacts } from './homes.js';

const shown = (sentence: string) => homeFacts(sentence).map((f) => `${f.predicate} ${f.object}`);

describe('where the user lives, said through the home', () => {
  it('reads the place of the writer’s rented or owned home', () => {
    expect(shown('we rent a two-bed flat in Headingley, the landlord never answers')).toEqual(['lives_in Headingley']);
    expect(shown('mortgage on our bungalow near Truro is nearly paid off')).toEqual(['lives_in Truro']);
    expect(shown('paying way too much for a studio in Leith')).toEqual(['lives_in Leith']);
    expect(shown('Lease signed: 2BR in Tacoma WA, $1,900/mo')).toEqual(['lives_in Tacoma']);
  });

  it('leaves homes that are someone else’s, bought, sold, visited or a second home', () => {
    expect(shown('my sister has a flat in Glasgow')).toEqual([]);
    expect(shown('he moved into an apartment in Queens and we split custody')).toEqual([]);
    expect(shown('we bought a house in Valencia as an investment')).toEqual([]);
    expect(shown('we sold the flat in Croydon last year')).toEqual([]);
    expect(shown('we have a cottage in Kerry, we go every summer')).toEqual([]);
  });
});
