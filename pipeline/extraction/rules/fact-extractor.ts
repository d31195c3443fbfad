import type { ExtractedFact, ExtractionInput, FactExtractor } from '../../types.js';
import { normalizeObject, subjectKey } from '../normalize.js';
import { expandContractions } from './contractions.js';
import { toExtractedFact, type FactDraft } from './draft.js';
import { rewriteReportedChange } from './reported-changes.js';
import { correctTypos } from './typos.js';
import { QUESTION_STARTERS } from './lexicon.js';
import { stripMarkdown } from './markdown.js';
import { splitSentences as splitPlainSentences } from './sentences.js';
import { restate } from './restatements.js';
import { leavesDatesFree } from './plan-dates.js';
import { BLOCK_PASSES, DRAFT_REWRITES, FACT_FIXES, MESSAGE_PASSES, SENTENCE_PASSES, type SentenceRun } from './passes.js';
import type { SubjectRef } from './subjects.js';
import { toFirstPerson } from './third-person.js';
import { userText } from './transcript.js';

/** Content beyond this many characters is ignored (the API caps content at 16,000). */
export const MAX_CONTENT_CHARS = 16_000;

const REQUEST_EXCEPTIONS = /^(?:call me\b|please (?:remember|note|keep in mind)\b|have (?:a|an|two|three) (?:dog|cat|\w+ allergy)\b|do not eat\b)/i;

/** Questions and requests to the assistant state no facts about the user. */
export function isQuestionOrRequest(sentence: string): boolean {
  const s = sentence.trim();
  if (/\?\s*["')\]]*$/.test(s)) return true;
  if (REQUEST_EXCEPTIONS.test(s)) return false;
  const first = /^[^\p{L}]*([\p{L}']+)/u.exec(s)?.[1]?.toLowerCase();
  return first !== undefined && QUESTION_STARTERS.has(first);
}

const NOT_MEANT = /\b(?:joking|jk|j\/k|kidding|just kidding|in my dreams|yeah right)\b/i;
/** The block's sentences, each restated into the plain statements the clause parser reads (restatements.ts). */
function splitSentences(plain: string): string[] {
  const agentNote = /\b(?:the )?user(?:'s)?\b/i.test(plain) && !/^\s*user:/im.test(plain);
  return splitPlainSentences(plain).flatMap((s) => restate(s, agentNote));
}

/** A fact and the rule pass that gave it. */
export interface TracedFact {
  fact: ExtractedFact;
  pass: string;
}

export interface RuleOptions {
  /** Passes left out (by name, passes.ts): how much each adds is measured by leaving it out. */
  skip?: ReadonlySet<string>;
}

/**
 * Rule-based extraction, synchronous. Deterministic: the output depends only
 * on `content` and `referenceTime`.
 */
export function extractFactsWithRules(input: ExtractionInput, options: RuleOptions = {}): ExtractedFact[] {
  return traceFactsWithRules(input, options).map((t) => t.fact);
}

/** The rule extractor's facts, each with the pass that gave it (passes.ts). */
export function traceFactsWithRules(input: ExtractionInput, options: RuleOptions = {}): TracedFact[] {
  const content = input.content.length > MAX_CONTENT_CHARS ? input.content.slice(0, MAX_CONTENT_CHARS) : input.content;
  if (content.trim().length < 4) return [];
  const runs = <P extends { name: string }>(passes: readonly P[]) => passes.filter((p) => !options.skip?.has(p.name));
  let facts: ExtractedFact[] = [];
  const passOf = new Map<ExtractedFact, string>();
  let pass = '';
  const seen = new Set<string>();
  let lastPerson: SubjectRef | undefined;
  const rewrites = runs(DRAFT_REWRITES);
  const fixes = runs(FACT_FIXES);
  const add = (proposed: FactDraft) => {
    for (const draft of rewrites.reduce((drafts, r) => drafts.flatMap((d) => r.rewrite(d)), [proposed])) {
      const fact = fixes.reduce<ExtractedFact | undefined>((f, fix) => f && fix.fix(f, draft), toExtractedFact(draft));
      if (!fact) continue;
      const key = `${subjectKey(fact.subject)}|${fact.predicate}|${normalizeObject(fact.object)}|${fact.negated}`;
      if (seen.has(key)) continue;
      seen.add(key);
      facts.push(fact);
      passOf.set(fact, pass);
    }
  };

  for (const block of userText(content)) {
    // E-mail header lines ("To: HR", "Re: Address change", "Subject: ...") state nothing about the writer.
    const plain = expandContractions(correctTypos(stripMarkdown(block))).replace(/^[ \t]*(?:to|from|cc|bcc|re|subject|sent)[ \t]*:.*$/gim, '');
    const blockStart = facts.length;
    const sentencesWithFreeDates: string[] = [];
    for (const raw of splitSentences(plain)) {
      if (isQuestionOrRequest(raw)) continue;
      // "(joking obviously)", "jk": what the sentence says is not meant.
      if (NOT_MEANT.test(raw)) continue;
      const sentenceStart = facts.length;
      const sentence = rewriteReportedChange(toFirstPerson(raw))
        // "Before Arup I worked at Atkins": the leading phrase only dates the clause.
        .replace(/^(?:[Bb]efore|[Aa]fter|[Uu]ntil)\s+[A-Z][\p{L}&'’-]*(?:\s+[A-Z][\p{L}&'’-]*)*,?\s+(?=I\b)/u, '');
      const run: SentenceRun = {
        raw,
        sentence,
        referenceTime: input.referenceTime,
        agedSubjects: new Set(),
        lastPerson,
        add,
        remove(drop) {
          for (let i = facts.length - 1; i >= sentenceStart; i--) if (drop(facts[i])) facts.splice(i, 1);
        },
        facts: () => facts.slice(sentenceStart),
      };
      for (const sentencePass of runs(SENTENCE_PASSES)) {
        pass = sentencePass.name;
        sentencePass.run(run);
      }
      lastPerson = run.lastPerson;
      if (leavesDatesFree(facts.slice(sentenceStart))) sentencesWithFreeDates.push(raw);
    }
    for (const blockPass of runs(BLOCK_PASSES)) blockPass.run(facts.slice(blockStart), sentencesWithFreeDates, input.referenceTime);
  }
  for (const messagePass of runs(MESSAGE_PASSES)) {
    pass = messagePass.name;
    facts = messagePass.run(facts, content);
    for (const fact of facts) if (!passOf.has(fact)) passOf.set(fact, pass);
  }
  return facts.map((fact) => ({ fact, pass: passOf.get(fact)! }));
}

/** An extractor that can say which pass (or the network, `model`) gave each fact: the evaluation's per-pass report. */
export interface TracingFactExtractor extends FactExtractor {
  traceFacts(input: ExtractionInput): Promise<TracedFact[]>;
}

export class RuleFactExtractor implements TracingFactExtractor {
  constructor(private readonly options: RuleOptions = {}) {}

  async traceFacts(input: ExtractionInput): Promise<TracedFact[]> {
    return traceFactsWithRules(input, this.options);
  }

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    return (await this.traceFacts(input)).map((t) => t.fact);
  }
}
