import { describe, expect, it } from 'vitest';
import { findAmount, parseAmount } from './amount.js';
import { normalizeObject, objectsEqual } from './normalize.js';

describe('amounts compare by value, currency and period', () => {
  it('treats spellings of the same amount as equal', () => {
    expect(objectsEqual('£1,350 a month', '1350 GBP/month')).toBe(true);
    expect(objectsEqual('62,000 euros a year', '€62k per year')).toBe(true);
    expect(objectsEqual('$61.5k', '61500 USD')).toBe(true);
    expect(objectsEqual('about 40 grand', '40000')).toBe(true);
    expect(objectsEqual('$4,300/mo take-home', '4300 USD/month')).toBe(true);
    expect(objectsEqual('USD 4,000/month', '$4,000 a month')).toBe(true);
    expect(objectsEqual('£12.60 an hour', '£12.60/hour')).toBe(true);
    expect(objectsEqual('500 quid', '£500')).toBe(true);
    expect(objectsEqual('4k net a month', '4000/month')).toBe(true);
  });

  it('keeps different amounts, currencies and periods apart', () => {
    expect(objectsEqual('£1,350 a month', '£1,350 a year')).toBe(false);
    expect(objectsEqual('£1,350', '$1,350')).toBe(false);
    expect(objectsEqual('41k', '47k')).toBe(false);
    expect(objectsEqual('£1,350 a month', '£1,350')).toBe(false);
  });

  it('leaves things that are not amounts alone', () => {
    expect(parseAmount('2019 Mazda MX-5')).toBeUndefined();
    expect(parseAmount('20mg')).toBeUndefined();
    expect(parseAmount('3 years')).toBeUndefined();
    expect(normalizeObject('3.5 kg')).toBe('3.5 kg');
    expect(normalizeObject('45')).toBe('45');
  });

  it('reads the parts of an amount', () => {
    expect(parseAmount('~$2,150/month')).toEqual({ value: 2150, currency: 'USD', period: 'month' });
    expect(parseAmount('1.2m')).toEqual({ value: 1_200_000, currency: undefined, period: undefined });
    expect(parseAmount('35,000 euro')).toEqual({ value: 35000, currency: 'EUR', period: undefined });
  });
});

describe('findAmount', () => {
  it('finds the amount with its period inside a sentence', () => {
    expect(findAmount('gone up to £1,350 a month for a one-bed flat')).toBe('£1,350 a month');
    expect(findAmount('about $4,300/mo after taxes')).toBe('$4,300/mo');
    expect(findAmount('I earn 4k net a month as a developer')).toBe('4k net a month');
    expect(findAmount('we pay 1850 a month between the two of us')).toBe('1850 a month');
    expect(findAmount('is 35,000 euro and the builder laughed')).toBe('35,000 euro');
  });

  it('ignores numbers that are not money unless asked', () => {
    expect(findAmount('I have 3 kids and 2 dogs')).toBeUndefined();
    expect(findAmount('mine is 612 after the bankruptcy', true)).toBe('612');
    expect(findAmount('for 3 years', true)).toBeUndefined();
  });
});
