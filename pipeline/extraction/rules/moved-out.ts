/**
 * Someone named moving out of the user's home ends their sharing it: "sam moved out last weekend",
 * "Priya's finally moved out". A housemate is the one relation this ends; if the stored relation to that
 * name is another (a partner, a child), the denial finds nothing to end.
 */
const MOVED_OUT = /^([A-Za-z][a-z-]+)(?:\s+has|['’]s)?\s+(?:just\s+|finally\s+|now\s+|already\s+)?moved\s+out\b/;
const NOT_NAMES = /^(?:I|we|he|she|they|it|you|who|everyone|everybody|someone|somebody|finally|just|then|so|and|but)$/i;

export function restateMovedOut(body: string): string[] | undefined {
  const m = MOVED_OUT.exec(body.trim());
  if (!m || NOT_NAMES.test(m[1])) return undefined;
  const name = m[1].charAt(0).toUpperCase() + m[1].slice(1);
  return [`${name} is no longer my roommate`];
}
