import { describe, expect, it } from 'vitest';
import { nominalEventFacts } from './event-mentions.js';

const referenceTime = new Date('2024-06-15T12:00:00Z');
const shown = (text: string) => nominalEventFacts(text, referenceTime)?.map((d) => `${d.predicate} ${d.object} ${d.validFrom?.toISOString().slice(0, 10)}`);

describe('events named with a date and no verb', () => {
  it('takes the event noun and the date, planned', () => {
    expect(shown('MRI on my knee tomorrow at 9:15 in the Mater')).toEqual(['has_appointment MRI 2024-06-16']);
    expect(shown('hospital appointment at the Royal Vic on 8th of July for my hip')).toEqual(['has_appointment hospital appointment 2024-07-08']);
    expect(shown('Wedding date: May 17, 2025')).toEqual(['attending Wedding 2025-05-17']);
  });

  it('leaves clauses with a verb, past dates and non-events alone', () => {
    expect(shown('The team threw Greg a party on Friday')).toBeUndefined();
    expect(shown('starting driving lessons next month')).toBeUndefined();
    expect(shown('the weather tomorrow')).toBeUndefined();
    expect(shown('the interview last Monday')).toBeUndefined();
  });
});
