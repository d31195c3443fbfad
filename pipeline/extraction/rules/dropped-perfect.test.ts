import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-03-10T09:00:00Z') }).map((f) => `${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('changes and states chat states without "I"', () => {
  it('read a bare participle as the perfect', () => {
    expect(described('Recently taken up archery, loving it')).toContain('hobby archery');
    expect(described('just given up pottery, no time')).toContain('NOT hobby pottery');
  });
  it('read a few state verbs with their objects', () => {
    expect(described('Drive a Skoda Octavia, bit boring')).toContain('drives Skoda Octavia');
    expect(described('Live in Derby these days')).toContain('lives_in Derby');
  });
  it('leave requests and participles of "be" alone', () => {
    expect(described('Drive me to the airport on Friday')).toEqual([]);
    expect(described('Born in Cork, raised in Galway')).toContain('born_in Cork');
  });
});
