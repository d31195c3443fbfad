/**
 * A relationship ended, said of the person: "I'm not with Tom any more", "no longer seeing Priya",
 * "not dating Sam anymore" -> "Tom is no longer my partner" (relatives.ts reads the denial).
 */
const NOT_WITH = /^(?:(?:I\s+am|I['’]m)\s+)?(?:not|no\s+longer)\s+(?:with|seeing|dating|together\s+with)\s+(\p{Lu}[\p{Ll}'’-]+)(?:\s+(?:any\s?more|now))?\b/u;

export function restatePartnerEnding(body: string): string[] | undefined {
  const m = NOT_WITH.exec(body.trim().replace(/^(?:Not|No)\b/, (w) => w.toLowerCase()));
  return m ? [`${m[1]} is no longer my partner`] : undefined;
}
