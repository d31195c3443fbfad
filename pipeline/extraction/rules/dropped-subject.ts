import { readVerb } from './inflection.js';

/**
 * Chat drops the subject and often the auxiliary too: "going to Marrakech in October", "been to Japan
 * twice", "obsessed with Taskmaster", "not a fan of sushi", "not really into gaming". At the start of a
 * sentence such a clause is about the writer. This restores "I am" / "I have" when what follows is a
 * taxonomy surface (checked by the caller's `isSurfaceStart`, so the taxonomy decides, not a phrase list).
 */

const NEGATION = /^(?:not|never)\s+(?:(?:really|exactly|much|actually|that|too|a\s+huge|a\s+big)\s+)*/i;
const ADVERBS = /^(?:(?:still|really|totally|absolutely|so|currently|just|properly|kind\s+of|kinda|sort\s+of|lowkey|low-key|genuinely|also|officially|finally)\s+)+/i;

/** The clause with its subject restored, or undefined when it does not read as a subjectless statement. */
export function restoreDroppedSubject(text: string, isSurfaceStart: (words: string[]) => boolean): string | undefined {
  const t = text.trim().replace(ADVERBS, '');
  const negation = NEGATION.exec(t)?.[0] ?? '';
  const rest = t.slice(negation.length).replace(ADVERBS, '');
  const words = rest.toLowerCase().split(/\s+/).filter(Boolean).map((w) => w.replace(/[^a-z'-]/g, ''));
  if (words.length < 2) return undefined;
  const not = negation ? 'not ' : '';
  // "been to Japan twice", "been getting into birdwatching"
  if (words[0] === 'been') return `I have ${not}${rest}`;
  // "going to Marrakech", "flying to Lisbon on Friday", "loving the new job"
  if (readVerb(words[0]).some((r) => r.form === 'gerund') && isSurfaceStart([words[0], words[1]])) return `I am ${not}${rest}`;
  // "obsessed with Taskmaster", "a huge fan of MCR", "into running", "allergic to cats"
  for (const n of [3, 2, 1]) {
    if (n === 1 && /^(?:a|an|the|my|our|some)$/.test(words[0])) continue;
    if (words.length > n && isSurfaceStart(['be', ...words.slice(0, n)])) return `I am ${not}${rest}`;
  }
  return undefined;
}
