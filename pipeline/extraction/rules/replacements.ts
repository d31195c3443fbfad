/**
 * A thing moved between providers or kinds: "moved our mortgage from Nationwide to Halifax", "switched my phone
 * contract from EE to Three" -> "I no longer have the Nationwide mortgage", "I have a Halifax mortgage" (the clause
 * parser then picks the predicate from the noun).
 */

const LEAD = String.raw`^(?:[\p{L}-]+\s*:\s*)?(?:(?:I|we|the\s+user|user)\s+(?:have\s+|has\s+)?)?(?:just\s+|finally\s+|recently\s+)?`;
const CHANGE_VERB = String.raw`(?:moved|switched|changed|transferred|swapped|took|taken)`;
const NAME = String.raw`(\p{Lu}[\p{L}\d&'’-]*(?:\s+\p{Lu}[\p{L}\d&'’-]*)*)`;
const THING_FROM_TO = new RegExp(String.raw`${LEAD}${CHANGE_VERB}\s+(?:my|our|the|his|her|their)\s+((?:[\p{Ll}-]+\s+){0,2}[\p{Ll}-]+)\s+(?:over\s+)?from\s+${NAME}\s+to\s+${NAME}`, 'u');

/** "moved our mortgage from Nationwide to Halifax": the statements of the end and the start. */
export function restateMovedThing(body: string): string[] | undefined {
  const m = THING_FROM_TO.exec(body.replace(/^(?:Finally|Just|Recently|Moved|Switched|Changed|Transferred|Swapped|Took)\b/, (w) => w.toLowerCase()));
  if (!m) return undefined;
  const [, thing, from, to] = m;
  return [`I no longer have the ${from} ${thing}`, `I have a ${to} ${thing}`];
}
