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
  const tail = m[1].replace(/\s+(?:for|in|with|someday|one day|this|next)\b.*$/i, '');
  const parts = tail.split(/\s*,\s*|\s+and\s+/).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0 || !parts.every((p) => PLACE.test(p))) return undefined;
  return { places: parts.map((p) => p.replace(/^the\s+/i, '')), tripOnly: /^(?:visit|go|travel|get)$/.test(verb) };
}
