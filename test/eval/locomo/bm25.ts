/**
 * The keyword baseline: Okapi BM25 (k1 = 1.2, b = 0.75) over the same turns, one index per
 * conversation, lower-cased letter/digit tokens with English stop words removed.
 */
const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with i you he she we me my your his her our what when where who which how did do does have has had'.split(' '),
);

export const bm25Tokens = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => !STOP.has(t));

export class Bm25Index {
  private readonly docs: { id: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  add(id: string, text: string): void {
    const tf = new Map<string, number>();
    const tokens = bm25Tokens(text);
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.push({ id, tf, length: tokens.length });
    this.totalLength += tokens.length;
  }

  /** Every document with a positive score, best first (ties by insertion order). */
  rank(query: string): string[] {
    const n = this.docs.length;
    const avg = this.totalLength / Math.max(1, n);
    const terms = [...new Set(bm25Tokens(query))];
    const idf = new Map(terms.map((t) => [t, Math.log(1 + (n - (this.df.get(t) ?? 0) + 0.5) / ((this.df.get(t) ?? 0) + 0.5))]));
    const scored: { index: number; score: number }[] = [];
    this.docs.forEach((d, index) => {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        score += idf.get(t)! * ((f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * d.length) / avg)));
      }
      if (score > 0) scored.push({ index, score });
    });
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return scored.map((s) => this.docs[s.index].id);
  }
}
