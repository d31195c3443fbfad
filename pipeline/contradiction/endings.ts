import type { FactRecord, Store, UserScope } from '../../storage/types.js';
import { isStopWord } from '../embedding/stop-words.js';
import { ANY_OBJECT } from '../extraction/taxonomy.js';
import { normalizeObject, subjectKey } from '../extraction/normalize.js';
import type { ContradictionJudge, HeldFact } from '../types.js';
import type { FactDraft } from '../write/types.js';

/** The most recent live facts of a scope that are looked through for the ones a message speaks of. */
const HELD_LOOKED_AT = 300;
/** At most this many held facts are put to the judge per message: the cost of a write stays bounded. */
const HELD_ASKED = 8;

export interface MessageEndingsInput {
  scope: UserScope;
  /** The message's memory (null in replays without one): facts it stated itself are not asked about. */
  memoryId: string | null;
  content: string;
  referenceTime: string;
  /** The facts extracted from the message, as stage 2 placed them. */
  facts: readonly FactDraft[];
}

const words = (text: string) =>
  (text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !isStopWord(w));
const singular = (w: string) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
const factKey = (subject: string, predicate: string, object: string) => `${subjectKey(subject)}\u0000${predicate}\u0000${normalizeObject(object)}`;

/**
 * How much a message speaks of a held fact: the share of the fact's object words it uses when that is at least
 * half of them ("the golf" speaks of "VW Golf", "support" alone not of "LGBTQ support group"), else a half when
 * it states a value of the same predicate for the same subject ("switched to Monzo" speaks of every bank).
 */
function mentionScore(fact: FactRecord, messageWords: ReadonlySet<string>, statedSlots: ReadonlySet<string>): number {
  const objectWords = words(fact.object).map(singular);
  const used = objectWords.filter((w) => messageWords.has(w)).length / Math.max(1, objectWords.length);
  if (used >= 0.5) return used;
  return statedSlots.has(`${fact.subjectKey}\u0000${fact.predicate}`) ? 0.5 : 0;
}

/**
 * The held facts a message ends without stating their ending as a fact of its own ("shut the lloyds account
 * down, everything's on revolut now" ends `banks_with Lloyds`), as negated drafts for the commit to place after the
 * message's own facts, so the rules end them the way they end any denial (a plan not yet started is cancelled).
 * Only a judge that reads whole messages (`endings`) finds any. It is asked about the live facts of the scope the
 * message speaks of (their words, or their predicate for the same subject), never about facts it restates.
 */
export async function messageEndings(deps: { store: Store; judge: ContradictionJudge }, input: MessageEndingsInput): Promise<FactDraft[]> {
  const { judge } = deps;
  if (!judge.endings) return [];
  const messageWords = new Set(words(input.content).map(singular));
  if (messageWords.size === 0) return [];
  const restated = new Set(input.facts.filter((f) => !f.negated).map((f) => factKey(f.subject, f.predicate, f.object)));
  const statedSlots = new Set(input.facts.map((f) => `${subjectKey(f.subject)}\u0000${f.predicate}`));
  const live = await deps.store.facts.query(
    { workspaceId: input.scope.workspaceId, userId: input.scope.userId, agentId: input.scope.agentId },
    { limit: HELD_LOOKED_AT, offset: 0 },
    { countTotal: false },
  );
  const asked = live.items
    .filter((f) => f.object !== ANY_OBJECT && !(input.memoryId !== null && f.sourceMemoryIds.includes(input.memoryId)))
    .filter((f) => !restated.has(factKey(f.subject, f.predicate, f.object)))
    .map((fact) => ({ fact, score: mentionScore(fact, messageWords, statedSlots) }))
    .filter((c) => c.score > 0)
    // Stable: the store's order (newest first) breaks ties.
    .sort((a, b) => b.score - a.score)
    .slice(0, HELD_ASKED)
    .map((c) => c.fact);
  if (asked.length === 0) return [];

  const reference = Date.parse(input.referenceTime);
  const held: HeldFact[] = asked.map((f) => ({
    subject: f.subject,
    predicate: f.predicate,
    object: f.object,
    ...(Date.parse(f.validFrom) > reference ? { plannedFor: f.validFrom } : {}),
  }));
  const confidence = await judge.endings(input.content, held);
  return asked.flatMap((fact, i) => {
    const p = confidence[i];
    return p === null || p === undefined ? [] : [endingOf(fact, p, input.referenceTime)];
  });
}

/** A denial of `fact` stated at the message's time, with the judge's confidence. */
function endingOf(fact: FactRecord, confidence: number, referenceTime: string): FactDraft {
  return {
    subject: fact.subject,
    subjectType: fact.subjectType,
    predicate: fact.predicate,
    predicateRaw: '',
    family: fact.family,
    object: fact.object,
    objectIsLiteral: fact.objectIsLiteral,
    negated: true,
    tense: 'current',
    confidence,
    validFrom: referenceTime,
    validTo: null,
    validFromStated: false,
    referenceTime,
  };
}
