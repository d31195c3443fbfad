/**
 * A wish to go somewhere is `wants_to_visit` the place: "my dream is visit New York and Chicago",
 * "I want to go back to Japan", "want to take my mom to Ireland". Returns the places named (capitalised,
 * split on "and" and commas) and whether the wish is only the trip (then no `wants_to` is kept).
 */
const TRIP = /^(?:visit|go(?:\s+back)?\s+to|travel\s+to|get\s+to|move\s+to|take\s+(?:my|her|his|their|our)\s+\w+\s+to)\s+(.+)$/i;
const PLACE = /^(?:the\s+)?\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)*$/u;

export function wishedPlaces(object: string): { places: string[]; tripOnly: boolean } | undefined {
  const m = TRIP.exec(object.trim());
  if (!m) return undefined;
  const verb = object.trim().split(/\s+/)[0].toLowerCase();
  // "move to" is a plan to live there, not a visit.
  if (verb === 'move') return undefined;
  const tail = m[1].replace(/\s+(?:for|in|with|someday|one day|this|next|at some point|eventually|soon|before I die)\b.*$/i, '');
  const parts = tail.split(/\s*,\s*|\s+and\s+/).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0 || !parts.every((p) => PLACE.test(p))) return undefined;
  return { places: parts.map((p) => p.replace(/^the\s+/i, '')), tripOnly: /^(?:visit|go|travel|get)$/.test(verb) };
}

const PLACE_NAME = String.raw`(\p{Lu}[\p{L}'’.-]*(?:\s+(?:and\s+)?\p{Lu}[\p{L}'’.-]*)*)`;
/** "Dying to go to Peru one day": chat leaves out the "I am" of a wish. */
const BARE_WISH = /^(?:so\s+|really\s+|honestly\s+)?(dying|desperate|itching|longing|keen|eager)\s+to\s+(?=\S)/i;
/** "want to add Patagonia to the bucket list", "Peru is on my bucket list". */
const ADDED_TO_LIST = new RegExp(String.raw`^(?:(?:I|we)\s+)?(?:(?:want|wanna|have|had|need)\s+to\s+|just\s+|also\s+)?(?:add(?:ed|ing)?|put|putting)\s+${PLACE_NAME}\s+(?:on|to)\s+(?:the|my|our)\s+(?:travel\s+)?(?:bucket\s*list|wish\s*list|list)\b`, 'u');
const ON_LIST = new RegExp(String.raw`^${PLACE_NAME}\s+(?:is|are|'s)\s+(?:still\s+|also\s+)?(?:on|at\s+the\s+top\s+of)\s+(?:my|our|the)\s+(?:travel\s+)?bucket\s*list\b`, 'u');
/** "Ticked off New Zealand!", "crossed Peru off the list", "finally made it to Japan": a wish fulfilled is a visit. */
const TICKED_OFF = new RegExp(String.raw`^(?:(?:I|we)\s+(?:have\s+)?)?(?:finally\s+|just\s+|officially\s+)?(?:ticked|crossed|checked)\s+(?:off\s+${PLACE_NAME}|${PLACE_NAME}\s+off)\b`, 'u');
const MADE_IT = new RegExp(String.raw`^(?:(?:I|we)\s+(?:have\s+)?)?(?:finally|at\s+last)\s+(?:made\s+it\s+to|got\s+to|been\s+to|went\s+to|visited)\s+${PLACE_NAME}`, 'u');

/** The plain statements for a wish to go somewhere or its fulfilment, or undefined. */
export function restateWish(written: string): string[] | undefined {
  if (BARE_WISH.test(written)) return [`I am ${written.trim()}`];
  // The verbs are matched in lower case; place names keep their capitals.
  const body = written.trim().replace(/^(?:Want|Wanna|Just|Also|Added|Add|Put|Ticked|Crossed|Checked|Finally|At|Officially)\b/, (w) => w.toLowerCase());
  const listed = ADDED_TO_LIST.exec(body) ?? ON_LIST.exec(body);
  if (listed) return [`I want to visit ${listed[1]}`];
  const ticked = TICKED_OFF.exec(body);
  if (ticked) return [`I visited ${ticked[1] ?? ticked[2]}`];
  const made = MADE_IT.exec(body);
  if (made) return [`I visited ${made[1]}`];
  return undefined;
}
