import { extractObjects } from './objects.js';

/**
 * "I've been in Dublin 3 years", "been in London nearly ten years now", "we're in Leeds as of last
 * week", "I've been in Amsterdam since": being in a place for a stretch of time, or since a stated
 * start, is living there. A plain "I'm in Rome" (no duration, no start) is left alone: it is as often
 * a trip as a home.
 */

const STRETCH = /\b(?:for\s+)?(?:(?:nearly|almost|about|around|over|roughly|well over|just over|going on)\s+)?(?:\d+|a couple of|a few|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|several)\s+(?:years?|yrs?|months?)\b(?!\s+(?:old|ago))/i;

export interface ResidenceContext {
  /** The verb phrase is a perfect ("have been in"). */
  perfect: boolean;
  /** The clause states when it started ("since 2020", "as of last week"). */
  statedStart: boolean;
}

/** The place of a "be in <place>" complement that states a residence, else undefined. */
export function residenceIn(complement: string, ctx: ResidenceContext): string | undefined {
  const m = /^(?:(?:now|still|currently|finally|back|officially)\s+)?in\s+(.+)$/i.exec(complement.trim());
  if (!m) return undefined;
  const rest = m[1];
  const stretch = STRETCH.test(rest);
  const bareSince = /\bsince(?:\s+then)?\s*$/i.test(rest);
  if (!(ctx.statedStart || (ctx.perfect && (stretch || bareSince)) || stretch)) return undefined;
  const placeText = rest.replace(STRETCH, ' ').replace(/\bsince(?:\s+then)?\s*$/i, ' ').replace(/\s+/g, ' ').trim();
  return extractObjects(placeText, { objectClass: 'place', predicate: 'lives_in', multi: false })[0];
}
