/**
 * Money amounts as written in chat ("£1,350 a month", "about 40 grand", "$61.5k", "USD 4,000/mo",
 * "62,000 euros a year") parsed into value, currency and period, so that two spellings of the same
 * amount get the same comparison key. Only whole-string amounts are parsed; anything else is undefined.
 */

export type Period = 'hour' | 'day' | 'week' | 'month' | 'year';

export interface Amount {
  value: number;
  /** ISO 4217 code when stated. */
  currency?: string;
  period?: Period;
}

const SYMBOLS: Record<string, string> = { $: 'USD', 'us$': 'USD', '£': 'GBP', '€': 'EUR', '¥': 'JPY', '₹': 'INR', 'a$': 'AUD', 'c$': 'CAD', 'au$': 'AUD', 'ca$': 'CAD' };
const CURRENCY_WORDS: [RegExp, string][] = [
  [/^(?:usd|dollars?|bucks|us dollars?)$/, 'USD'],
  [/^(?:gbp|pounds?(?: sterling)?|quid|sterling)$/, 'GBP'],
  [/^(?:eur|euros?)$/, 'EUR'],
  [/^(?:chf|swiss francs?|francs?)$/, 'CHF'],
  [/^(?:cad|canadian dollars?)$/, 'CAD'],
  [/^(?:aud|australian dollars?)$/, 'AUD'],
  [/^(?:inr|rupees?)$/, 'INR'],
  [/^(?:jpy|yen)$/, 'JPY'],
];
const MULTIPLIERS: [RegExp, number][] = [
  [/^(?:k|grand|thousand|g)$/, 1_000],
  [/^(?:m|mil|million|mn)$/, 1_000_000],
  [/^(?:bn|b|billion)$/, 1_000_000_000],
];
const PERIODS: [RegExp, Period][] = [
  [/^(?:(?:an?|per|each|every|\/)\s*(?:hour|hr|h)|hourly|ph)$/, 'hour'],
  [/^(?:(?:a|per|each|every|\/)\s*(?:day|d)|daily|pd)$/, 'day'],
  [/^(?:(?:a|per|each|every|\/)\s*(?:week|wk|w)|weekly|pw)$/, 'week'],
  [/^(?:(?:a|per|each|every|\/)\s*(?:month|mo|mth|m)|monthly|pm|p\/m|pcm)$/, 'month'],
  [/^(?:(?:a|per|each|every|\/)\s*(?:year|yr|y|annum)|annually|yearly|pa|p\/a|per annum)$/, 'year'],
];

const APPROXIMATION = /^(?:about|around|roughly|approximately|approx\.?|circa|ca\.?|like|some|~|≈|c\.)\s*/;
/** Words that qualify an amount without changing it. */
const QUALIFIERS = /\b(?:net|gross|take[- ]home|base|before taxe?s?|after taxe?s?|pre[- ]tax|post[- ]tax|max|maximum|tops|total|all in|in total|or so|ish|give or take|avg|average|on average)\b/g;

const NUMBER = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?/;

function lookup<T>(table: [RegExp, T][], word: string): T | undefined {
  for (const [pattern, value] of table) if (pattern.test(word)) return value;
  return undefined;
}

/** Parses a whole string as an amount of money, or undefined. A bare number parses with neither currency nor period. */
export function parseAmount(text: string): Amount | undefined {
  let s = text.normalize('NFKC').toLowerCase().trim().replace(/[.!]+$/, '').replace(QUALIFIERS, ' ').replace(/\s+/g, ' ').trim();
  s = s.replace(APPROXIMATION, '');
  let currency: string | undefined;
  const prefix = /^(us\$|a\$|c\$|au\$|ca\$|[$£€¥₹])\s*/.exec(s) ?? /^(usd|gbp|eur|chf|cad|aud|inr|jpy)\s+/.exec(s);
  if (prefix) {
    currency = SYMBOLS[prefix[1]] ?? prefix[1].toUpperCase();
    s = s.slice(prefix[0].length);
  }
  const number = NUMBER.exec(s);
  if (!number) return undefined;
  let value = Number(`${number[1].replace(/,/g, '')}.${number[2] ?? '0'}`);
  s = s.slice(number[0].length).trim();
  const words = s.split(/\s+|(?=\/)/).filter(Boolean);
  let i = 0;
  const multiplier = words[0] === undefined ? undefined : lookup(MULTIPLIERS, words[0]);
  if (multiplier !== undefined) {
    value *= multiplier;
    i++;
  }
  for (const n of [3, 2, 1]) {
    const named = i + n <= words.length ? lookup(CURRENCY_WORDS, words.slice(i, i + n).join(' ')) : undefined;
    if (named && (!currency || currency === named)) {
      currency = named;
      i += n;
      break;
    }
  }
  let period: Period | undefined;
  const rest = words.slice(i).join(' ').replace(/\s*\/\s*/g, '/').trim();
  if (rest) {
    period = lookup(PERIODS, rest);
    if (!period) return undefined;
  }
  if (!Number.isFinite(value)) return undefined;
  return { value, currency, period };
}

/** Comparison key of an amount: "1350 gbp/month", "40000", "61500 usd". */
export function amountKey(amount: Amount): string {
  const value = Number.isInteger(amount.value) ? String(amount.value) : String(Math.round(amount.value * 100) / 100);
  return [value, amount.currency?.toLowerCase()].filter(Boolean).join(' ') + (amount.period ? `/${amount.period}` : '');
}

const CURRENCY_PREFIX = String.raw`(?:us\$|a\$|c\$|au\$|ca\$|[$£€¥₹]|(?:usd|gbp|eur|chf|cad|aud|inr|jpy)\s)`;
const NUMBER_TEXT = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const MULTIPLIER_TEXT = String.raw`(?:\s?(?:k|grand|thousand|m|mil|million|bn|billion)\b)`;
const CURRENCY_TEXT = String.raw`(?:\s(?:usd|dollars?|bucks|gbp|pounds?|quid|eur|euros?|chf|francs?|cad|aud|inr|rupees?|yen)\b)`;
const QUALIFIER_TEXT = String.raw`(?:\s(?:net|gross|take[- ]home|base|before taxe?s?|after taxe?s?|pre[- ]tax|max|tops|all in))`;
const PERIOD_TEXT = String.raw`(?:\s?\/\s?(?:hour|hr|h|day|week|wk|month|mo|mth|year|yr|annum)\b|\s(?:an?|per|each|every)\s(?:hour|hr|day|week|month|year|annum)\b|\s(?:hourly|daily|weekly|monthly|annually|yearly|pa|pcm|pm|p\/m)\b)`;
const AMOUNT_IN_TEXT = new RegExp(
  String.raw`(?:(?:about|around|roughly|approximately|approx\.?|~)\s?)?(?:${CURRENCY_PREFIX}\s?(?:${NUMBER_TEXT})${MULTIPLIER_TEXT}?|(?:${NUMBER_TEXT})(?:${MULTIPLIER_TEXT}${CURRENCY_TEXT}?|${CURRENCY_TEXT}|(?=${QUALIFIER_TEXT}?${PERIOD_TEXT})))(?:${QUALIFIER_TEXT}?${PERIOD_TEXT})?`,
  'i',
);

const APPROXIMATION_TEXT = /^(?:about|around|roughly|approximately|approx\.?|~)\s?/i;

/**
 * The first money amount in running text, as written ("£1,350 a month", "$4,300/mo", "4k net a month",
 * "about 40 grand"). A bare number counts only with a period ("1850 a month"), or when `bareNumbers` is set.
 */
export function findAmount(text: string, bareNumbers = false): string | undefined {
  const found = AMOUNT_IN_TEXT.exec(text)?.[0];
  if (found) return found.replace(APPROXIMATION_TEXT, '').trim();
  if (!bareNumbers) return undefined;
  return new RegExp(String.raw`(?:${NUMBER_TEXT})(?!\s?(?:%|years?|yrs?|months?|days?|weeks?|hours?|hrs?|kg|lbs?|cm|mg|am|pm|people|kids|times)\b)`, 'i').exec(text)?.[0]?.trim();
}
