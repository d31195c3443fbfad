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
