import { isEventPhrase } from './lexicon.js';

/**
 * Trips as people plan them, rewritten into plain statements the clause parser reads:
 *  - a planned trip named as a thing: "The user plans a trip to Edinburgh on 14 September",
 *    "we've booked a week in Crete for August", "planning a road trip to Utah" -> "I am going to Edinburgh ...";
 *  - a journey made for an event: "flying to Berlin for PyCon DE on 22 April" is a trip to Berlin and
 *    attending PyCon DE on that date; a denied journey ("no longer travelling to Austin for the
 *    conference") denies the trip only.
 */

const PLANNER = String.raw`(?:(?:note|update|fyi)\s*[:,-]\s*)?(?:(?:I|we|the\s+user|user|she|he)\s+)?(?:am\s+|are\s+|is\s+|have\s+|has\s+|'ve\s+|just\s+|also\s+|now\s+)*`;
const PLAN_VERB = String.raw`(?:plan|plans|planning|planned|book|booked|booking|organise|organised|organising|organize|organized|organizing|arrange|arranged|arranging)`;
const TRIP_NOUN = String.raw`(?:(?:[\p{L}'’-]+\s+){0,2}(?:trip|holiday|vacation|visit|getaway|break|weekend|week|fortnight|honeymoon|tour))`;
const PLANNED_TRIP = new RegExp(String.raw`^${PLANNER}${PLAN_VERB}\s+(?:a|an|our|my|the|their)\s+${TRIP_NOUN}\s+(?:away\s+)?(?:to|in)\s+(\p{Lu}.*)$`, 'iu');

const TRAVEL = String.raw`(going|flying|travelling|traveling|heading|driving|off|go|fly|travel|head|drive|went|flew|travelled|traveled|headed|drove|goes|flies|travels|heads|drives)`;
const PLACE = String.raw`(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)`;
const FOR_EVENT = new RegExp(String.raw`^(.*?\b)${TRAVEL}\s+(?:back\s+)?to\s+${PLACE}\s+for\s+(.+?)(\s+(?:on|in|at|next|this|from|between|over)\b.*|\s*[,;].*)?$`, 'u');
const EVENT_DETERMINER = /^(?:(?:the|a|an|my|our|his|her|their)\s+)/i;
/** Capitalised reasons that are seasons or holidays, not events one attends. */
const NOT_EVENTS = /^(?:Christmas|Easter|New Year|New Year's|Thanksgiving|Diwali|Eid|Hanukkah|Passover|Ramadan|Halloween|Work|Business)\b/u;

const ATTEND_FORM: Record<string, string> = { ing: 'attending', past: 'attended', third: 'attends', base: 'attend' };

function formOf(verb: string): keyof typeof ATTEND_FORM {
  if (/ing$/.test(verb) || verb === 'off') return 'ing';
  if (/^(?:went|flew|drove)$|ed$/.test(verb)) return 'past';
  if (/^(?:goes|flies)$|s$/.test(verb)) return 'third';
  return 'base';
}

/** An event named after "for": a name in capitals or a phrase headed by an event noun ("the fringe", "a school reunion"). */
function eventOf(phrase: string): string | undefined {
  const bare = phrase.replace(EVENT_DETERMINER, '').trim();
  if (bare === '' || NOT_EVENTS.test(bare)) return undefined;
  if (/^\p{Lu}/u.test(bare) && bare.split(/\s+/).length <= 4) return phrase;
  // "for a conference" names no event in particular; "for the conference", "for a school reunion" do.
  if (/^(?:a|an)\s/i.test(phrase) && !bare.includes(' ')) return undefined;
  return isEventPhrase(bare) ? phrase : undefined;
}

/** The plain sentences for a trip plan or a journey for an event, or undefined when the sentence is neither. */
export function restateTrip(body: string): string[] | undefined {
  const planned = PLANNED_TRIP.exec(body);
  const sentence = planned ? `I am going to ${planned[1]}` : body;
  // "Flying to Lyon ...": a sentence-initial verb is read in lower case ("I" stays as it is).
  const journey = FOR_EVENT.exec(/^I\b/.test(sentence) ? sentence : sentence.replace(/^\p{Lu}/u, (c) => c.toLowerCase()));
  if (journey) {
    const [, before, verb, place, purpose, rest = ''] = journey;
    // "I'm off to Barcelona": "off" is going.
    const trip = `${before}${verb === 'off' ? 'going' : verb} to ${place}${rest}`;
    const event = eventOf(purpose);
    // "Flying to Lyon for ...": chat leaves out the subject, which the second statement needs.
    const subject = before.trim() === '' ? (formOf(verb) === 'ing' ? 'I am ' : 'I ') : before;
    // A journey called off says nothing of the event: "no longer flying to Austin for the conference; it went virtual".
    const denied = /\b(?:not|no\s+longer|never)\s+$/i.test(before);
    if (event && !denied) return [trip, `${subject}${ATTEND_FORM[formOf(verb)]} ${event}${rest}`];
    if (event) return [trip];
    if (verb === 'off') return [trip];
  }
  return planned ? [sentence] : undefined;
}
