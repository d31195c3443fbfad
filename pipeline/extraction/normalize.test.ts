import { describe, expect, it } from 'vitest';
import { normalizeObject, objectsEqual, subjectKey } from './normalize.js';

describe('normalizeObject', () => {
  it('ignores case, surrounding whitespace and final punctuation', () => {
    expect(normalizeObject('Munich')).toBe('munich');
    expect(normalizeObject('  MUNICH. ')).toBe('munich');
    expect(normalizeObject('New   York!')).toBe('new york');
  });

  it('drops leading articles, possessives and "the city of"', () => {
    expect(normalizeObject('the city of Munich')).toBe('munich');
    expect(normalizeObject('a dog')).toBe('dog');
    expect(normalizeObject('my Tesla')).toBe('tesla');
    expect(normalizeObject('The Beatles')).toBe('beatles');
    expect(objectsEqual('Munich', 'the city of munich')).toBe(true);
  });

  it('keeps symbols that carry meaning and digit grouping does not matter', () => {
    expect(normalizeObject('C++')).toBe('c++');
    expect(normalizeObject('C#')).toBe('c#');
    expect(normalizeObject('$85,000')).toBe('85000 usd');
    expect(objectsEqual('$85,000', '$85000')).toBe(true);
    expect(normalizeObject('3.5 kg')).toBe('3.5 kg');
  });

  it('treats hyphens, ampersands and apostrophes consistently', () => {
    expect(objectsEqual('rock & roll', 'rock and roll')).toBe(true);
    expect(objectsEqual('e-bike', 'e bike')).toBe(true);
    expect(objectsEqual("St. Mary's Hospital", 'st marys hospital')).toBe(true);
  });

  it('does not merge different things', () => {
    expect(objectsEqual('Munich', 'Berlin')).toBe(false);
    expect(objectsEqual('Mexico City', 'Mexico')).toBe(false);
    expect(objectsEqual('60k a year', '70k')).toBe(false);
  });

  it('leaves the any-object marker alone', () => {
    expect(normalizeObject('*')).toBe('*');
  });
});

describe('subjectKey', () => {
  it('compares subjects case-insensitively', () => {
    expect(subjectKey('user')).toBe('user');
    expect(subjectKey(' Anna ')).toBe('anna');
    expect(subjectKey("User’s Sister")).toBe("user's sister");
  });
});
