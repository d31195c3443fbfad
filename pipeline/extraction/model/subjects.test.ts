import { describe, expect, it } from 'vitest';
import { subjectFromSpan } from './subjects.js';

describe('subjectFromSpan', () => {
  it('reads the user, relatives by canonical relation word, and names', () => {
    expect(subjectFromSpan('The user')?.subject).toBe('user');
    expect(subjectFromSpan('my mum')?.subject).toBe("user's mother");
    expect(subjectFromSpan("User's sister")?.subject).toBe("user's sister");
    expect(subjectFromSpan('our landlord')?.subject).toBe("user's landlord");
    expect(subjectFromSpan("Anna's")?.subject).toBe('Anna');
    expect(subjectFromSpan('Dr. Patel')?.subject).toBe('Dr. Patel');
  });

  it('refuses what is no subject', () => {
    expect(subjectFromSpan('the weather')).toBeUndefined();
    expect(subjectFromSpan('')).toBeUndefined();
    expect(subjectFromSpan('A Very Long Capitalised Heading Here')).toBeUndefined();
  });
});
