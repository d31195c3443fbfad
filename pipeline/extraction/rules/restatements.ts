/**
 * Chat phrasings of an update, rewritten into the plain statements the clause parser reads:
 *  - a leading interjection set off by punctuation: "Funny, I think ...", "quick update: ...", "Change of plan: ...";
 *  - a new favourite announced as a label: "ok new favourite food: ramen" -> "my favourite food is ramen";
 *  - a favourite with a dropped "my" and a perfect: "Favourite colour's always been green" -> "my favourite colour is green";
 *  - a new name after a name change: "took my husband's name so it's Emily Novak now" -> "my name is Emily Novak";
 *  - the next employer as a purpose clause: "quit Siemens to join BMW" -> "quit Siemens and joined BMW".
 */

import { restateTrip } from './plans.js';
import { restateMovedThing } from './replacements.js';
import { restateWish } from './wishes.js';
import { withoutLifeStage } from './life-stages.js';
import { restateNoCategory } from './category-denials.js';
import { restateMovedOut } from './moved-out.js';
import { restateDroppedSubject } from './dropped-perfect.js';
import { restatePartnerEnding } from './partner-endings.js';

const INTERJECTION = /^(?:funny|honestly|anyway|anyways|well|oh|ok|okay|so|right|update|quick update|small update|news|big news|good news|change of plan|change of plans|fun fact|btw|by the way|plot twist|fyi|heads up|update on me)\s*[,:!—–-]+\s*(?=\S)/i;
const NEW_FAVOURITE = /^(?:(?:ok|okay|so|well)\s+)?(?:(?:my|our)\s+)?new\s+(favou?rite\s+[\p{L}]+)\s*[:=–—-]\s*/iu;
const FAVOURITE_ALWAYS = /^(?:(?:my|our)\s+)?(favou?rite\s+[\p{L}]+)(?:['’]s|\s+has|\s+have)\s+(?:always\s+|probably\s+|forever\s+)?been\s+/iu;
const NEW_NAME = /\b(?:took|taken|taking|changed|changing|went back to|gone back to)\b.*\b(?:sur)?name\b.*?\b(?:so\s+|and\s+)?(?:it\s+is|it['’]s|its|i\s+am|i['’]m|now)\s+(?:now\s+)?([A-Z][\p{L}'’-]+(?:\s+[A-Z][\p{L}'’-]+)+)/u;

/** Fields of work: "moved out of finance and into education" is a change of field, not of home. */
const FIELD = /^(?:the\s+)?(?:finance|banking|education|teaching|tech|technology|it|marketing|sales|law|legal|healthcare|health care|medicine|retail|hospitality|consulting|consultancy|accounting|accountancy|journalism|media|publishing|insurance|construction|engineering|nursing|academia|research|government|politics|the civil service|civil service|hr|human resources|recruitment|recruiting|pharma|logistics|manufacturing|real estate|property|advertising|design|social work|social care|charity|the charity sector|nonprofit|non-profit|fashion|music|film|tv|gaming|software|data|science|policing|the police|the military|the army|the nhs)(?:\s+(?:sector|industry|world))?$/i;

const THING = String.raw`(?:(?:my|our|the|a|an)\s+)?(?:old\s+|trusty\s+)?([\p{L}\d][\p{L}\d'’&-]*(?:\s+[\p{L}\d][\p{L}\d'’&-]*){0,3}?)`;
/** "my thinkpad died so I replaced it with a MacBook Air", "replaced my Kindle with a Kobo". */
const REPLACED_IT = new RegExp(String.raw`^(?:I\s+)?(?:my|our|the)\s+([\p{L}\d][\p{L}\d'’&-]*(?:\s+[\p{L}\d][\p{L}\d'’&-]*){0,2}?)\s+(?:finally\s+|just\s+|completely\s+)?(?:died|broke|packed\s+(?:in|up)|gave\s+(?:up|out)|is\s+dead|was\s+stolen|got\s+stolen)\b.*?\b(?:so\s+)?(?:I|we)\s+(?:have\s+)?(?:just\s+)?(?:replaced|swapped)\s+it\s+(?:with|for)\s+${THING}\s*$`, 'iu');
const REPLACED_MY = new RegExp(String.raw`^(?:I|we)\s+(?:have\s+)?(?:just\s+|finally\s+)?(?:replaced|swapped)\s+${THING}\s+(?:with|for)\s+${THING}\s*$`, 'iu');
/** "handed back the BMW and the new company car is an Audi A4". */
const HANDED_BACK = new RegExp(String.raw`^(?:I\s+|we\s+)?(?:have\s+)?(?:just\s+)?(?:handed|gave|given|took|taken)\s+back\s+${THING}(?:\s+and\s+(?:the|my|our)\s+new\s+(?:company\s+|lease\s+|work\s+)?car\s+is\s+${THING})?\s*$`, 'iu');
/** "closed my barclays account", "closed the Nationwide account". */
const CLOSED_ACCOUNT = /\bclosed\s+(?:my|our|the)\s+([\p{L}&'’ ]+?)\s+(?:bank\s+|current\s+|savings\s+)?account\b/iu;
/** "Completed on the sale of the Leeds flat": a sale that went through. */
const SALE_COMPLETED = /^(?:(?:I|we)\s+(?:have\s+)?)?(?:finally\s+|just\s+)?(?:completed|closed)\s+(?:on\s+)?the\s+sale\s+of\s+(?:the|my|our)\s+([\p{L}\d'’ -]+?)(?=\s+(?:today|yesterday|this|last|on)\b|[,;.]|$)/iu;
/** "moved out of finance and into education", "the user's mother has moved out of Bath and into ... in Bristol". */
const OUT_AND_INTO = /^(.*?)\b(?:has\s+|have\s+)?moved\s+out\s+of\s+(?:the\s+)?([\p{L}][\p{L}'’ -]*?)\s+and\s+into\s+(.+?)\s*$/iu;
/** "not playing piano any more": chat drops the subject of a denial. */
const BARE_DENIAL = /^(?:not|no\s+longer)\s+(?=\p{L}+ing\b)/iu;
/** "retrained as a primary teacher" after a dash or comma. */
const RETRAINED = /\s*[-–—,;]\s*(?:I\s+(?:have\s+)?)?(retrained|requalified|qualified|trained)\s+as\s+/iu;

const subjectOf = (lead: string) => {
  const s = lead.trim().replace(/\s+(?:has|have|had)$/i, '').trim();
  return s === '' ? 'I' : s;
};

/** "Tom and I are getting married on 21 September": engaged now, married from the date. */
const GETTING_MARRIED = /^([A-Z][\p{L}'’-]+)\s+and\s+(?:I|me)\s+(?:are|r)\s+(?:getting\s+married|tying\s+the\s+knot)\b(.*)$/u;
/** "Gave up on Python for now and started learning Spanish instead": the second verb names what ended. */
const GAVE_UP_FOR = /^(?:I\s+)?(?:have\s+)?(?:gave|given|give)\s+up\s+(?:on\s+)?(?:the\s+|my\s+)?(.+?)(?:\s+for\s+now)?\s+and\s+(?:have\s+)?(?:started|began|begun|am\s+now|now)\s+(\p{L}+ing)\s+(.+?)(?:\s+instead)?\s*$/iu;

const PLACE = String.raw`([A-Z\p{Ll}][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*){0,2})`;
const capitalised = (w: string) => w.replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase());
const NOT_PLACES = /^(?:road|school|work|business|day|camping|ski|skiing|fishing|family|weekend|shopping|field|boys|girls|girls'|lads|stag|hen|solo|big|little|last|next|first|this|that|the|a|my|our|work's|team)$/i;
/** "Got a GP appointment on Tuesday", "booked a dentist appointment for the 3rd": a chat note of an appointment. */
const GOT_APPOINTMENT = /^(?:(?:I|we)\s+(?:have\s+)?)?(?:just\s+)?(?:got|booked|made|have)\s+(?:a|an|my|the)\s+((?:[\p{L}'’-]+\s+){1,2}(?:appointment|appt|consultation|check-?up))\b(.*)$/iu;
/** "dentist on may 14 at 10am, remind me the day before": an appointment noted as a bare noun and a date. */
const BARE_APPOINTMENT = /^(dentist|doctor|gp|physio|physiotherapist|optician|vet|hairdresser|barber|dermatologist|therapist|osteopath|chiropractor|nurse)\s+((?:on|at|tomorrow|next|this|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b.*?)(?:[,;]\s*(?:can you|could you|please|pls|remind|set|add|put)\b.*)?$/iu;
/** "Trip to Japan in October", "iceland trip next month": a trip noted without a verb. */
const BARE_TRIP = new RegExp(String.raw`^(?:(?:a|the|our|my)\s+)?(?:trip|holiday|flight|flights)\s+to\s+${PLACE}\s+((?:in|on|next|this|from|at\s+the\s+end\s+of)\b.*)$`, 'iu');
const PLACE_TRIP = new RegExp(String.raw`^${PLACE}\s+(?:trip|holiday)\s+((?:in|on|next|this|from)\b.*)$`, 'iu');
/** "ok booked it, Seoul November 8 to 15": a booking that names the place and the dates. */
const BOOKED_PLACE = /^(?:(?:ok|okay|so|right|well)\s+)?(?:(?:I|we)\s+(?:have\s+)?)?(?:booked(?:\s+it)?|it\s+is\s+booked|all\s+booked|flights\s+booked)[,:!;—–-]+\s*([A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)?)[,:]?\s+(\S.*\d.*)$/u;
/** "Had to cancel the Japan trip": the user's own cancellation (a bare "cancel the ..." is a request to the assistant). */
const HAD_TO_CANCEL = /^(?:(?:I|we)\s+)?(?:had|have|having)\s+to\s+cancel\s+(the|my|our)\s+(.+)$/iu;
/** "The clinic cancelled the user's physio appointment": someone else cancelled it. */
const THEY_CANCELLED = /^(?:the\s+)?(?:clinic|surgery|dentist|hospital|practice|doctor|gp|venue|organisers|organizers|airline|hotel|school|office|they|he|she)\s+(?:has\s+|have\s+)?(?:just\s+)?(?:cancelled|canceled|called\s+off)\s+(?:the\s+user['’]s|my|our|the|his|her|their)\s+(.+?)(?:\s*[;,].*)?$/iu;
/** "dentist rang, they've moved me to the 28th of may": a provider moved the appointment. */
const THEY_MOVED = /^(?:the\s+)?(\p{L}+)\s+(?:rang|called|phoned|emailed|texted)[,;:]?\s+(?:and\s+)?(?:they|she|he)\s+(?:have\s+|has\s+)?(?:moved|rescheduled|pushed|changed|put)\s+(?:me|it|us|my\s+appointment)\s+(?:back\s+|forward\s+)?(?:to|for)\s+(.+?)(?:[,;]\s*same\s+time)?$/iu;

/**
 * "a mortgage with Nationwide" is "a Nationwide mortgage": the provider names which one, so that a
 * move to another provider can end it.
 */
const WITH_PROVIDER = /\b(a|an|the|my|our)\s+((?:[\p{Ll}-]+\s+){0,2}(?:mortgage|loan|account|overdraft|credit\s+card|pension|isa|policy|contract))\s+(?:with|at)\s+(\p{Lu}[\p{L}&'’-]*(?:\s+\p{Lu}[\p{L}&'’-]*)*)/gu;

/** "My appointment with the optician is on 2 July": the appointment is named by whom it is with. */
const APPOINTMENT_WITH = /\b(my|an|a|the|our)\s+appointment\s+with\s+(?:the|my|a|an|our)\s+(\p{L}+)\b/giu;

function eventRestatement(body: string): string[] | undefined {
  const got = GOT_APPOINTMENT.exec(body);
  if (got) return [`I have a ${got[1]}${got[2]}`];
  const bare = BARE_APPOINTMENT.exec(body);
  if (bare) return [`I have a ${bare[1]} appointment ${bare[2]}`];
  const moved = THEY_MOVED.exec(body);
  if (moved) return [`my ${moved[1]} appointment has been moved to ${moved[2]}`];
  const trip = BARE_TRIP.exec(body) ?? PLACE_TRIP.exec(body);
  if (trip && !NOT_PLACES.test(trip[1])) return [`I am going to ${capitalised(trip[1])} ${trip[2].split(/\s*[,;]\s*/)[0]}`];
  const booked = BOOKED_PLACE.exec(body);
  if (booked) return [`I am going to ${booked[1]} ${booked[2]}`];
  const cancelled = HAD_TO_CANCEL.exec(body);
  if (cancelled) return [`I cancelled ${cancelled[1]} ${cancelled[2]}`];
  const theirs = THEY_CANCELLED.exec(body);
  if (theirs) return [`my ${theirs[1]} is cancelled`];
  return undefined;
}

/** "Still have about 8k left on my car loan": an outstanding balance means the loan is there. */
const BALANCE_LEFT = /^(?:(?:I|we)\s+)?(?:still\s+)?(?:have|got|owe)\s+(?:about\s+|around\s+|roughly\s+|nearly\s+|~)?[£$€]?\d[\d.,]*\s*(?:k|grand|thousand)?\s+(?:left\s+)?(?:to\s+pay\s+)?(?:on|off)\s+(?:my|our|the)\s+((?:[\p{L}-]+\s+){0,2}(?:loan|mortgage))\b/iu;
/** "Went from the iPhone 12 to a Pixel 8": a subjectless switch between two named things. */
const WENT_FROM = /^(?:(?:I|we)\s+)?(?:[Ww]ent|[Mm]oved|[Ss]witched|[Cc]hanged)\s+from\s+(?:the\s+|my\s+|an?\s+)?([\p{L}][\p{L}\d'’-]*(?:\s+[\p{L}\d'’-]+){0,2}?)\s+to\s+(?:the\s+|an?\s+)?([\p{L}][\p{L}\d'’-]*(?:\s+[\p{L}\d'’-]+){0,2})\s*(?:[,;—–-].*)?$/u;
const DEVICE_BRAND = /^(?:iPhone|iPad|Pixel|Galaxy|Samsung|OnePlus|Xiaomi|Motorola|Nokia|Android|MacBook|Mac|ThinkPad|Chromebook|Surface|Kindle|Kobo|Garmin|Fitbit|Apple Watch)\b/u;
/** "I'm on an iPhone 12": the device the user is on. */
const ON_DEVICE = /^(?:I\s+am|I['’]m)\s+(?:still\s+)?on\s+(?:an?|the)\s+((?:iPhone|iPad|Pixel|Galaxy|Samsung|OnePlus|Xiaomi|Motorola|Nokia|Android|MacBook|Mac|ThinkPad|Chromebook|Surface|Kindle)(?:\s+[\p{L}\d+]+){0,2})\s*$/u;

/** "signed up for the EU grants webinar on 25 June": registering for an event is attending it. */
const SIGNED_UP = /^(?:(?:I|we)\s+(?:have\s+)?)?(?:just\s+)?(?:signed\s+up|registered|enrolled|entered)\s+(?:for|in|into)\s+(the|a|an)\s+((?:[\p{L}\d'’-]+\s+){0,4}(?:webinar|conference|workshop|talk|meetup|summit|hackathon|race|marathon|half\s+marathon|10k|5k|triathlon|tournament|competition))\b(.*)$/iu;
/** "boygenius replaced arctic monkeys as my favourite band": the new favourite. */
const REPLACED_AS_FAVOURITE = /^(.+?)\s+(?:has\s+)?(?:replaced|overtook|overtaken|took\s+over\s+from)\s+.+?\s+as\s+(?:my|our)\s+(favou?rite\s+[\p{L}]+)\s*$/iu;

const GROUP = String.raw`(?:club|gym|society|choir|league|union|orchestra)`;
/** "Quit David Lloyd and joined the Parkside Running Club instead": one membership for another. */
const QUIT_AND_JOINED = new RegExp(String.raw`^(?:(?:I|we)\s+(?:have\s+)?)?(?:just\s+)?(?:quit|left|cancelled|canceled|ditched|dropped)\s+(?:the\s+|my\s+)?(.+?)\s+and\s+(?:have\s+)?joined\s+(?:the\s+|a\s+|an\s+)?(.+?\s${GROUP})\b(?:\s+instead)?`, 'iu');
/** "joined the Parkside Running Club": membership, not employment. */
const JOINED_GROUP = new RegExp(String.raw`^(?:(?:I|we)\s+(?:have\s+)?)?(?:just\s+|finally\s+|recently\s+)?joined\s+(?:the\s+|a\s+|an\s+)?((?:(?!(?:the|a|an|my|our)\s)[\p{L}\d'’&-]+\s+){1,4}${GROUP})\b`, 'iu');
/** "member of the David Lloyd gym": a profile line without its subject. */
const BARE_MEMBER = /^(?:a\s+)?member\s+of\s+/i;

const BANK = /^(?:HSBC|Barclays|Lloyds|NatWest|Santander|Monzo|Starling|Revolut|Halifax|Nationwide|TSB|Metro Bank|First Direct|Co-op Bank|Chase|Wells Fargo|Bank of America|Citi|Citibank|Chime|Ally|Capital One|N26|ING|Bunq|Wise|AIB|Bank of Ireland|RBS|Virgin Money|Kroo|Chase UK)$/i;
/** "The user switched from HSBC to Starling": a change of bank, when both ends are banks. */
const SWITCHED_BANK = /^(?:(?:I|we|the\s+user|user|he|she|they)\s+(?:have\s+|has\s+)?)?(?:just\s+|finally\s+)?(?:switched|moved|changed)\s+(?:banks?\s+|(?:my|our|his|her|their)\s+(?:banking|bank\s+account|current\s+account|account)\s+)?from\s+([\p{L}][\p{L}\d&' -]*?)\s+to\s+([\p{L}][\p{L}\d&'-]*(?:\s+(?:Bank|Direct|Money|Fargo|of\s+America|of\s+Ireland|UK))?)\b/iu;

const VEHICLE = /\b(?:car|van|bike|motorbike|scooter|truck|Corolla|Civic|Golf|Polo|Fiesta|Focus|Corsa|Astra|Clio|Yaris|Prius|Octavia|Fabia|Qashqai|Juke|Tesla|Model\s+[3SXY]|Mini|Defender|Discovery|Range Rover|Mustang|Camry|Accord|CR-V|RAV4|Outback|Impreza|Leaf|Zoe|MG4|ID\.?3|ID\.?4|Ioniq|Niro|Kona|Sportage|Tucson)\b/i;
const isVehicle = (phrase: string) => VEHICLE.test(phrase);

/**
 * "I quit Siemens to join BMW", "leaving Ferrari to join Red Bull": the purpose clause is the next employer. Only for
 * the user (said or left out), whom the clause parser carries over to "and joined"; a third person it may not.
 */
const QUIT_TO_JOIN = /^((?:(?:I|we|the\s+user|user)(?:['’]m|['’]ve)?\s+(?:(?:am|are|is|have|has|had|just|finally|recently|actually)\s+)*)?)(quit|left|resigned\s+from|leaving|quitting)\s+((?:[^\s,;:.!?]+\s+){0,5}?)to\s+(join|work\s+for|work\s+at|start\s+at)\b/iu;
const NEXT_JOB: Record<string, [past: string, progressive: string]> = { join: ['joined', 'joining'], work: ['now work', 'going to work'], start: ['started', 'starting'] };
const quitAndJoined = (_m: string, subject: string, verb: string, what: string, next: string) => {
  const [head, ...rest] = next.split(/\s+/);
  const [past, progressive] = NEXT_JOB[head.toLowerCase()];
  return `${subject}${verb} ${what}and ${[/ing$/i.test(verb) ? progressive : past, ...rest].join(' ')}`;
};

/** One sentence in, the plain sentences the clause parser reads out (usually the same one). */
export function restate(sentence: string, agentNote = false): string[] {
  const name = NEW_NAME.exec(sentence);
  if (name) return [`my name is ${name[1]}`];
  let s = withoutLifeStage(sentence.trim().replace(INTERJECTION, ''));
  s = s.replace(NEW_FAVOURITE, (_m, head: string) => `my ${head} is `).replace(FAVOURITE_ALWAYS, (_m, head: string) => `my ${head} is `);
  // "fav band is arctic monkeys forever": the emphasis is no part of the name.
  if (/\b(?:favou?rite|fave?)\b/i.test(s)) s = s.replace(/\s+(?:forever|for\s+ever|for\s+life|obviously|of\s+course|no\s+contest)\s*([.!]*)$/i, '$1');
  s = s.replace(APPOINTMENT_WITH, (_m, det: string, who: string) => `${/^an?$/i.test(det) ? 'a' : det} ${who} appointment`);
  s = s.replace(WITH_PROVIDER, (_m, det: string, thing: string, provider: string) => `${/^an$/i.test(det) ? 'a' : det} ${provider} ${thing}`);
  s = s.replace(QUIT_TO_JOIN, quitAndJoined);
  // Agent notes about "the user": a sentence opening with "His"/"Her"/"Their" speaks of the user's people.
  if (agentNote) s = s.replace(/^(?:His|Her|Their)\s+(?=\p{Ll})/u, "The user's ");
  const body = s.replace(/[.!]+$/, '');
  const event = eventRestatement(body);
  if (event) return event;
  const trip = restateTrip(body);
  if (trip) return trip;
  const wish = restateWish(body);
  if (wish) return wish;
  const none = restateNoCategory(body);
  if (none) return none;
  const movedOut = restateMovedOut(body) ?? restatePartnerEnding(body);
  if (movedOut) return movedOut;
  const dropped = restateDroppedSubject(body);
  if (dropped) return dropped;
  const replacedIt = REPLACED_IT.exec(body) ?? REPLACED_MY.exec(body);
  // A car or a bike swapped for another is owned; a device or an app is used.
  if (replacedIt && isVehicle(replacedIt[1]) && isVehicle(replacedIt[2])) return [`I no longer have the ${replacedIt[1]}`, `I have a ${replacedIt[2]}`];
  if (replacedIt) return [`I no longer use ${replacedIt[1]}`, `I use ${replacedIt[2]}`];
  const handed = HANDED_BACK.exec(body);
  if (handed) return [`I no longer drive ${handed[1]}`, ...(handed[2] ? [`I drive ${handed[2]}`] : [])];
  const sale = SALE_COMPLETED.exec(body);
  if (sale) return [`I sold the ${sale[1]}`, body.slice(sale.index + sale[0].length).replace(/^[\s,;]+/, '')].filter((x) => x.length > 0);
  const out = OUT_AND_INTO.exec(body);
  if (out) {
    const who = subjectOf(out[1]);
    const verb = who === 'I' || /^we$/i.test(who) ? '' : 's';
    const [head, ...tail] = out[3].split(RETRAINED);
    const extra = tail.length >= 2 ? [`I am ${tail[1]}`] : [];
    if (FIELD.test(out[2].trim())) return [`${who} no longer work${verb} in ${out[2]}`, `${who} work${verb} in ${head}`, ...extra];
    const place = /\bin\s+([A-Z][\p{L}'’-]*(?:\s+[A-Z][\p{L}'’-]*)*)\s*$/u.exec(head)?.[1] ?? (/^[A-Z]/.test(head) ? head : undefined);
    return [`${who} no longer live${verb} in ${out[2]}`, ...(place ? [`${who} live${verb} in ${place}`] : []), ...extra];
  }
  const bank = SWITCHED_BANK.exec(body);
  if (bank && BANK.test(bank[1].trim()) && BANK.test(bank[2].trim())) return [`I no longer bank with ${bank[1].trim()}`, `I bank with ${bank[2].trim()}`];
  const moved = restateMovedThing(body);
  if (moved) return moved;
  const switchedGroup = QUIT_AND_JOINED.exec(body);
  if (switchedGroup) return [`I am not a member of ${switchedGroup[1]} any more`, `I am a member of the ${switchedGroup[2]}`];
  const joined = JOINED_GROUP.exec(body);
  if (joined) return [`I am a member of the ${joined[1]}`];
  if (BARE_MEMBER.test(body)) return [body.replace(BARE_MEMBER, 'I am a member of ')];
  const signed = SIGNED_UP.exec(body);
  if (signed) return [`I am attending ${signed[1]} ${signed[2]}${signed[3]}`];
  const newFavourite = REPLACED_AS_FAVOURITE.exec(body);
  if (newFavourite) return [`my ${newFavourite[2]} is ${newFavourite[1].split(/[,;:]\s*/).pop()!.trim()}`];
  const balance = BALANCE_LEFT.exec(body);
  if (balance) return [`I have a ${balance[1]}`];
  const went = WENT_FROM.exec(body);
  // Only products (a model number or a device brand): "went from London to Leeds" is a journey.
  if (went && [went[1], went[2]].every((x) => /\d/.test(x) || DEVICE_BRAND.test(x))) return [`I switched from ${went[1]} to ${went[2]}`];
  const device = ON_DEVICE.exec(body);
  if (device) return [`I use an ${device[1]}`];
  const married = GETTING_MARRIED.exec(body);
  if (married) return [`I am getting married to ${married[1]}${married[2]}`, `${married[1]} and I got engaged`];
  const gaveUp = GAVE_UP_FOR.exec(body);
  if (gaveUp) return [`I am not ${gaveUp[2]} ${gaveUp[1]} any more`, `I am ${gaveUp[2]} ${gaveUp[3]}`];
  const closed = CLOSED_ACCOUNT.exec(body);
  if (closed) return [`I no longer bank with ${closed[1]}`];
  return [s.replace(BARE_DENIAL, 'I am not ')];
}
