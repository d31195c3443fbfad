import { describe, expect, it } from 'vitest';
import { moneyFlowFacts } from './money-flows.js';

const shown = (text: string) => moneyFlowFacts(text)?.map((d) => `${d.predicate} ${d.object}`);

describe('money put towards a goal or owed on a loan', () => {
  it('reads the goal of saving whatever the verb', () => {
    expect(shown('putting away £300 a month for a deposit on a house')).toEqual(['saving_for deposit on a house']);
    expect(shown('we have got about 8 grand saved for the wedding')).toEqual(['saving_for wedding']);
  });

  it('reads the loan an amount is owed on', () => {
    expect(shown('I have ~$22k remaining on student loans')).toEqual(['has_loan student loans']);
    expect(shown('down to the last £800 on my overdraft')).toEqual(['has_loan overdraft']);
  });

  it('ignores pronoun goals, amounts without a loan noun, and debts paid off', () => {
    expect(shown('saving for it slowly')).toBeUndefined();
    expect(shown('spent £40 on my hair')).toBeUndefined();
    expect(shown('paid off the last £800 on my overdraft')).toBeUndefined();
  });
});
