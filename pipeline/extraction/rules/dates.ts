import * as chrono from 'chrono-node';

/**
 * Stated dates in a clause, resolved against the reference time, with the role
 * the surrounding words give them ("since March 2021" starts a relation,
 * "until 2020" ends one, "last year" is a point in time).
 */

export type DateRole = 'start' | 'end' | 'point' | 'duration';

export interface DateMention {
  /** Character span in the clause, including a leading preposition ("since ", "in "). */
  start: number;
  end: number;
  text: string;
  role: DateRole;
  date: Date;
  /** End of a stated range ("from 2015 to 2018"). */
  until?: Date;
  /** End of the period a point names: "in 2015" ends 2016-01-01, "in March 2021" ends 2021-04-01. */
  periodEnd?: Date;
}

const START_WORDS = /(?:since|from|starting(?: in| on| from)?|as of|beginning(?: in| of)?|effective)\s+$/i;
const END_WORDS = /(?:until|till|til|up to|through|thru|by the end of|to)\s+$/i;
const LEADING_PREPOSITION = /(?:\b(?:back|sometime|early|earlier|late|later|all|way back)\s+)?(?:\b(?:in|on|at|since|from|until|till|til|by|during|around|circa|starting(?: in| on| from)?|as of|beginning(?: in| of)?|effective|through|thru|up to|before|after)\s+(?:the\s+)?)?$/i;
const NOT_A_DATE = /^(?:a|an|one|per|every|each|the)\s+(?:year|month|week|day|night|morning|evening)$|^(?:now|today|tonight|right now|currently)$|^\d{1,2}(?::\d{2})?\s*(?:am|pm)?$/i;
const UNITS_MS: Record<string, (d: Date, n: number) => Date> = {
  year: (d, n) => new Date(Date.UTC(d.getUTCFullYear() - n, d.getUTCMonth(), d.getUTCDate())),
  month: (d, n) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - n, d.getUTCDate())),
  week: (d, n) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - 7 * n)),
  day: (d, n) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - n)),
};
const NUMBER_WORDS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, few: 3, couple: 2, 'a few': 3, 'a couple of': 2, several: 3 };

export function startOfDayUTC(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function overlaps(mentions: DateMention[], start: number, end: number): boolean {
  return mentions.some((m) => start < m.end && end > m.start);
}

function roleFromContext(before: string): DateRole {
  if (START_WORDS.test(before)) return 'start';
  if (END_WORDS.test(before)) return 'end';
  return 'point';
}

function widenToPreposition(clause: string, index: number): number {
  const before = clause.slice(0, index);
  const match = LEADING_PREPOSITION.exec(before);
  return match && match[0].length > 0 ? index - match[0].length : index;
}

/**
 * Finds date mentions. `forward` resolves ambiguous dates ("on Friday", "in May")
 * to the next occurrence, which is right for planned events.
 */
export function findDates(clause: string, referenceTime: Date, forward: boolean): DateMention[] {
  const mentions: DateMention[] = [];

  // Durations first: chrono reads "for 5 years" as a future date.
  const durationRe = /\bfor\s+(?:the\s+(?:past|last)\s+)?(?:(?:about|around|almost|nearly|over|roughly|approximately|more than|less than|at least)\s+)?(\d+|a couple of|a few|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|few|several)\s+(year|month|week|day)s?\b/gi;
  for (const m of clause.matchAll(durationRe)) {
    const n = /^\d+$/.test(m[1]) ? Number(m[1]) : NUMBER_WORDS[m[1].toLowerCase()] ?? 1;
    mentions.push({ start: m.index!, end: m.index! + m[0].length, text: m[0], role: 'duration', date: UNITS_MS[m[2].toLowerCase()](referenceTime, n) });
  }

  // Year ranges and bare years, which chrono does not read on their own.
  const rangeRe = /\b(?:from|between)\s+((?:19|20)\d{2})\s+(?:to|until|till|and|-|–)\s+((?:19|20)\d{2})\b|\b((?:19|20)\d{2})\s*[-–]\s*((?:19|20)\d{2})\b/gi;
  for (const m of clause.matchAll(rangeRe)) {
    const from = Number(m[1] ?? m[3]);
    const to = Number(m[2] ?? m[4]);
    const start = widenToPreposition(clause, m.index!);
    mentions.push({ start, end: m.index! + m[0].length, text: m[0], role: 'start', date: new Date(Date.UTC(from, 0, 1)), until: new Date(Date.UTC(to, 0, 1)) });
  }

  // Seasons, which chrono does not read: "next spring", "last summer", "in the autumn of 2023".
  const seasonRe = /\b(?:(next|last|this|coming)\s+|(?:in\s+)?(?:the\s+)?(?:early\s+|late\s+)?)(spring|summer|autumn|fall|winter)\b(?:\s+(?:of\s+)?((?:19|20)\d{2}))?/gi;
  for (const m of clause.matchAll(seasonRe)) {
    if (!m[1] && !m[3] && !/^(?:in\s+)/i.test(m[0])) continue;
    const start = m.index! + (m[0].length - m[0].trimStart().length);
    if (overlaps(mentions, start, m.index! + m[0].length)) continue;
    const month = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 }[m[2].toLowerCase() as 'spring'] as number;
    const at = (year: number) => new Date(Date.UTC(year, month, 1));
    const y = referenceTime.getUTCFullYear();
    let date: Date;
    if (m[3]) date = at(Number(m[3]));
    else {
      const which = (m[1] ?? (forward ? 'next' : 'this')).toLowerCase();
      const thisOne = at(referenceTime.getUTCMonth() < 2 && month === 11 ? y - 1 : y);
      const endOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 3, 1));
      if (which === 'last') date = endOf(thisOne) <= referenceTime ? thisOne : at(thisOne.getUTCFullYear() - 1);
      else if (which === 'next' || which === 'coming') date = thisOne > referenceTime ? thisOne : at(thisOne.getUTCFullYear() + 1);
      else date = thisOne;
    }
    const wide = widenToPreposition(clause, start);
    mentions.push({ start: wide, end: m.index! + m[0].length, text: clause.slice(wide, m.index! + m[0].length), role: roleFromContext(clause.slice(0, start)), date, periodEnd: new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 3, 1)) });
  }

  const parsed = chrono.parse(clause, { instant: referenceTime, timezone: 'UTC' }, { forwardDate: forward });
  for (const result of parsed) {
    const text = result.text.trim();
    if (NOT_A_DATE.test(text)) continue;
    // A bare length of time ("5 years", "two weeks") is a duration, not a date.
    if (/^(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|several)\s+(?:years?|months?|weeks?|days?)$/i.test(text)) continue;
    const onlyTime = !result.start.isCertain('day') && !result.start.isCertain('month') && !result.start.isCertain('year') && !result.start.isCertain('weekday') && result.start.isCertain('hour');
    if (onlyTime) continue;
    if (/^(?:may|march|sun|sat|wed)$/i.test(text) && !/\b(?:in|since|until|last|next|this|of|early|late)\s+$/i.test(clause.slice(0, result.index))) continue;
    const end = result.index + result.text.length;
    if (overlaps(mentions, result.index, end)) continue;
    // "every weekend", "most mornings": habits, not dates.
    if (/\b(?:every|each|most|all|some|other|on)\s+$/i.test(clause.slice(0, result.index)) && /^(?:weekends?|week|days?|mornings?|evenings?|nights?|afternoons?)$/i.test(text)) continue;
    const start = widenToPreposition(clause, result.index);
    const before = clause.slice(0, result.index);
    const date = result.start.isCertain('hour') ? result.start.date() : startOfDayUTC(result.start.date());
    const until = result.end ? startOfDayUTC(result.end.date()) : undefined;
    const periodEnd = result.start.isCertain('day') || result.start.isCertain('weekday')
      ? undefined
      : result.start.isCertain('month')
        ? new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1))
        : new Date(Date.UTC(date.getUTCFullYear() + 1, 0, 1));
    mentions.push({ start, end, text: clause.slice(start, end), role: until ? 'start' : roleFromContext(before), date, until, periodEnd });
  }

  const yearRe = /\b((?:19|20)\d{2})\b/g;
  for (const m of clause.matchAll(yearRe)) {
    const end = m.index! + m[0].length;
    if (overlaps(mentions, m.index!, end)) continue;
    const before = clause.slice(0, m.index!);
    // Only years introduced by a temporal word: "in 2019", "since 2019", "until 2020", "2019," at the start.
    if (!/(?:in|since|from|until|till|til|by|around|circa|before|after|through|of|back in|to|year|summer|winter|spring|fall|autumn)\s+$/i.test(before) && before.trim() !== '') continue;
    const start = widenToPreposition(clause, m.index!);
    mentions.push({ start, end, text: clause.slice(start, end), role: roleFromContext(before), date: new Date(Date.UTC(Number(m[1]), 0, 1)), periodEnd: new Date(Date.UTC(Number(m[1]) + 1, 0, 1)) });
  }

  return mentions.sort((a, b) => a.start - b.start);
}

/** The clause with the given mentions cut out and whitespace tidied. */
export function removeMentions(clause: string, mentions: DateMention[]): string {
  let out = '';
  let cursor = 0;
  for (const m of [...mentions].sort((a, b) => a.start - b.start)) {
    if (m.start < cursor) continue;
    out += `${clause.slice(cursor, m.start)}${/,\s*$/.test(clause.slice(m.start, m.end)) ? ', ' : ' '}`;
    cursor = m.end;
  }
  out += clause.slice(cursor);
  return out.replace(/\s+([,.!?])/g, '$1').replace(/\s+/g, ' ').replace(/^[\s,]+|[\s,]+$/g, '');
}
