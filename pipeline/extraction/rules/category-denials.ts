import { ANY_OBJECT } from '../taxonomy.js';

/**
 * A denial that names the kind of thing, not one of them, ends all of them: "no pets now", "we don't
 * have any pets any more", "no kids". Its object is ANY_OBJECT, which the judge reads as "whatever is live".
 */

const CATEGORY_WORDS: Record<string, RegExp> = {
  has_pet: /^(?:any\s+|a\s+)?pets?$/i,
  has_child: /^(?:any\s+|a\s+)?(?:kids?|child|children)$/i,
};

/** ANY_OBJECT when a denied object only names the predicate's kind of thing, else the object. */
export function deniedObject(predicate: string, object: string): string {
  return CATEGORY_WORDS[predicate]?.test(object.trim()) ? ANY_OBJECT : object;
}

/** "no pets now, the landlord ...", "We have no kids": the plain denial the clause parser reads. */
const NO_CATEGORY = /^(?:(?:I|we)\s+(?:have|got|have\s+got)\s+)?no\s+(pets?|kids|children)\b(?:\s+(?:now|any\s?more|these\s+days|at\s+the\s+moment|yet))?/i;

export function restateNoCategory(body: string): string[] | undefined {
  const m = NO_CATEGORY.exec(body.trim());
  return m ? [`I do not have any ${m[1]}`] : undefined;
}
