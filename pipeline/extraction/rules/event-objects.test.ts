import { describe, expect, it } from 'vitest';
import { cleanEventObject } from './event-objects.js';

describe('event objects without when and where', () => {
  it('drops dates, venues and named places that follow the event', () => {
    expect(cleanEventObject('custody hearing on the 8th')).toBe('custody hearing');
    expect(cleanEventObject('coldplay concert at wembley')).toBe('coldplay concert');
    expect(cleanEventObject('Comic-Con in San Diego')).toBe('Comic-Con');
    expect(cleanEventObject('dentist appointment next Tuesday')).toBe('dentist appointment');
  });

  it('drops a verb the phrase swallowed but keeps the event words', () => {
    expect(cleanEventObject('Cabo called')).toBe('Cabo');
    expect(cleanEventObject("Niall's wedding")).toBe("Niall's wedding");
    expect(cleanEventObject('job interview')).toBe('job interview');
  });
});
