import { describe, expect, it } from 'vitest';
import { extractFactsWithRules } from './fact-extractor.js';

const described = (content: string) =>
  extractFactsWithRules({ content, referenceTime: new Date('2024-06-01T00:00:00Z') }).map((f) => `${f.subject} ${f.negated ? 'NOT ' : ''}${f.predicate} ${f.object}`);

describe('an ending without an object names the one employer in the message', () => {
  it('uses a stint or a "from" employer', () => {
    expect(described('Got laid off this morning. 6 years at Deloitte, gone')).toContain('user NOT works_at Deloitte');
    expect(described('I retired in March from the fire service after 30 years')).toContain('user NOT works_at fire service');
  });
  it('stays open when no employer, or more than one, is named', () => {
    expect(described("I'm retired now")).toContain('user NOT works_at *');
    expect(described('Laid off today. 2 years at Meta after 5 years at Google')).toContain('user NOT works_at *');
  });
});
