import { describe, expect, it } from 'vitest';
import { RuleContradictionJudge } from '../../../pipeline/contradiction/rule-judge.js';
import { RuleFactExtractor } from '../../../pipeline/extraction/rules/fact-extractor.js';
import { simulate, type TimelineFact } from './simulate.js';

/**
 * One conversation per class of change handled this round, through the real commit logic: endings by
 * name and by kind, replacements between providers, plans dated elsewhere in the message, wishes
 * fulfilled, someone else's attribute, life stages. Written for this file, in chat and agent-note voices.
 */
const deps = { extractor: new RuleFactExtractor(), judge: new RuleContradictionJudge() };
const validAt = (f: TimelineFact, t: number) => Date.parse(f.validFrom) <= t && (f.invalidAt === null || t < Date.parse(f.invalidAt));
const valuesAt = (facts: TimelineFact[], predicate: string, iso: string, subject = 'user') =>
  facts.filter((f) => f.subject === subject && f.predicate === predicate && validAt(f, Date.parse(iso))).map((f) => f.object).sort();
const run = (...steps: [string, string][]) => simulate(steps.map(([timestamp, content]) => ({ user_id: 'u', content, timestamp })), deps);

describe('classes of change, end to end', () => {
  it('a pet lost by name is no longer had; the other pet and the new one are', async () => {
    const facts = await run(
      ['2023-01-05T09:00:00Z', 'we have a cat called Pixel and a tortoise'],
      ['2023-02-05T09:00:00Z', 'our greyhound, Dash, loves the beach'],
      ['2024-02-01T09:00:00Z', 'Dash passed away on Sunday. We got a whippet puppy a week later, she is a menace'],
    );
    expect(valuesAt(facts, 'has_pet', '2024-02-02T00:00:00Z')).toEqual(['cat', 'tortoise', 'whippet']);
    expect(valuesAt(facts, 'has_pet', '2023-06-01T00:00:00Z')).toEqual(['cat', 'greyhound (Dash)', 'tortoise']);
  });

  it('"no pets now" ends every pet, and a puppy still to come arrives on its day', async () => {
    const facts = await run(
      ['2023-01-05T09:00:00Z', 'I have a budgie'],
      ['2024-06-01T09:00:00Z', "we're adopting a spaniel! collecting him on 20 July"],
      ['2024-06-10T09:00:00Z', 'no pets right now, the budgie died in May'],
    );
    expect(valuesAt(facts, 'has_pet', '2024-06-11T00:00:00Z')).toEqual([]);
    expect(valuesAt(facts, 'has_pet', '2024-07-21T00:00:00Z')).toEqual(['spaniel']);
  });

  it('a mortgage moved between lenders: one live loan, the old one in history', async () => {
    const facts = await run(['2021-04-01T09:00:00Z', 'We have a mortgage with Coventry'], ['2024-04-01T09:00:00Z', 'switched our mortgage from Coventry to Nationwide at last']);
    expect(valuesAt(facts, 'has_loan', '2024-04-02T00:00:00Z')).toEqual(['Nationwide mortgage']);
    expect(valuesAt(facts, 'has_loan', '2022-01-01T00:00:00Z')).toEqual(['Coventry mortgage']);
  });

  it('a trip rescheduled in a clause that names no date takes the date the message gives', async () => {
    const facts = await run(
      ['2024-03-01T09:00:00Z', 'The user is planning a trip to Cardiff for the Six Nations decider on 16 March 2024.'],
      ['2024-03-05T09:00:00Z', 'The match was moved to 23 March 2024; the user is still going to Cardiff.'],
    );
    expect(valuesAt(facts, 'trip_to', '2024-03-17T12:00:00Z')).toEqual([]);
    expect(valuesAt(facts, 'trip_to', '2024-03-23T12:00:00Z')).toEqual(['Cardiff']);
  });

  it('a visit ends the wish to go there, the other wishes stay', async () => {
    const facts = await run(['2023-01-01T09:00:00Z', "I'm itching to get to Peru and Chile"], ['2024-02-01T09:00:00Z', 'Finally made it to Peru!!']);
    expect(valuesAt(facts, 'wants_to_visit', '2024-02-02T00:00:00Z')).toEqual(['Chile']);
    expect(valuesAt(facts, 'visited', '2024-02-02T00:00:00Z')).toEqual(['Peru']);
  });

  it("a relative's rent changes theirs, not the user's", async () => {
    const facts = await run(['2024-01-01T09:00:00Z', 'I pay £950 rent'], ['2024-04-01T09:00:00Z', "my brother's rent went up to £1,200, mine hasn't moved"]);
    expect(valuesAt(facts, 'pays_rent', '2024-04-02T00:00:00Z')).toEqual(['£950']);
    expect(valuesAt(facts, 'pays_rent', '2024-04-02T00:00:00Z', "user's brother")).toEqual(['£1,200']);
  });

  it('a housemate who moves out is no longer one; the other stays', async () => {
    const facts = await run(['2023-09-01T09:00:00Z', 'my flatmates are Jo and Tariq'], ['2024-01-20T09:00:00Z', 'tariq moved out, Jo and I are looking for someone']);
    expect(valuesAt(facts, 'has_roommate', '2024-01-21T00:00:00Z')).toEqual(['Jo']);
  });
});
