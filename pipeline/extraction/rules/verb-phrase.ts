import { readVerb, type VerbReading } from './inflection.js';

/**
 * Reads the auxiliary chain and main verb at the start of a predicate:
 * "have been working at" -> work, perfect; "don't eat" -> eat, negated;
 * "used to live" -> live, used_to; "am going to move" -> move, planned.
 */

export type VerbTime = 'present' | 'progressive' | 'perfect' | 'past' | 'past_perfect' | 'used_to' | 'planned';

export interface VerbPhrase {
  /** Readings of the main verb token; copulas and passives have lemma "be". */
  readings: VerbReading[];
  /** Index of the main verb token. */
  mainIndex: number;
  time: VerbTime;
  negated: boolean;
  /** "might", "could", "may", "probably". */
  hedged: boolean;
  /** "I want to ...", "I'd like to ...", "I hope to ...". */
  wants: boolean;
  /** "started doing" / "stopped doing". */
  phase?: 'start' | 'stop';
  /** "I can speak", ability. */
  ability: boolean;
}

const ADVERBS = new Set(
  'just really also still now currently actually recently finally already always definitely totally absolutely usually mostly only even officially literally honestly mainly primarily basically sometimes often generally truly seriously obviously certainly genuinely kinda originally presently newly mostly happily proudly secretly slowly gradually permanently temporarily eventually lately regularly occasionally rarely barely hardly both all once first soon shortly so very too pretty quite fully nearly almost exclusively strictly officially technically'.split(' '),
);
const HEDGES = new Set(['maybe', 'probably', 'perhaps', 'possibly', 'apparently', 'supposedly', 'likely']);
const BE_PRESENT = new Set(['am', 'is', 'are']);
const BE_PAST = new Set(['was', 'were']);

export interface Token {
  raw: string;
  lower: string;
}

export function tokenize(text: string): Token[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((raw) => ({ raw, lower: raw.toLowerCase().replace(/^[("'“]+|[)"'”,.!?;:]+$/g, '') }));
}

const isGerund = (w: string | undefined) => !!w && readVerb(w).some((r) => r.form === 'gerund');
const isParticiple = (w: string | undefined) => !!w && readVerb(w).some((r) => r.form === 'participle');
const isBase = (w: string | undefined) => !!w && readVerb(w).some((r) => r.form === 'base');

/**
 * Parses the verb phrase at `tokens[0..]`. Returns undefined when there is no
 * verb or the phrase states no fact (obligations, attempts, deliberation).
 */
export function parseVerbPhrase(tokens: Token[], hasSurfaceStartingWith: (words: string[]) => boolean): VerbPhrase | undefined {
  let i = 0;
  let negated = false;
  let hedged = false;
  let wants = false;
  let ability = false;
  let planned = false;
  let usedTo = false;
  let did: 'present' | 'past' | undefined;
  let have: 'present' | 'past' | undefined;
  let phase: 'start' | 'stop' | undefined;
  const w = (k: number) => tokens[k]?.lower;

  /** Gerunds and adjectives after "be" that the loop reads as auxiliaries: "am planning to", "am trying to". */
  const startsAuxiliaryConstruction = (k: number): boolean => {
    const word = w(k);
    const next = w(k + 1);
    if (!word) return false;
    if (/^(planning|hoping|wanting|dying|desperate|itching|longing|intending|dreaming|aiming|trying|needing|supposed|able|unable|afraid|scared|ready|willing|due|set|scheduled|eager|keen|about)$/.test(word)) return next === 'to';
    if (/^(thinking|considering|wondering|debating|deciding|torn)$/.test(word)) return true;
    if (/^(starting|beginning|stopping|quitting|keeping|continuing)$/.test(word)) return isGerund(next) || next === 'to';
    if (word === 'giving') return next === 'up' && isGerund(w(k + 2));
    return false;
  };

  const skipAdverbs = (k: number) => {
    while (k < tokens.length) {
      if (ADVERBS.has(w(k)!) || HEDGES.has(w(k)!) || w(k) === 'not' || w(k) === 'never') k++;
      // "is no longer going": an ending, read like "not".
      else if (w(k) === 'no' && w(k + 1) === 'longer') k += 2;
      else break;
    }
    return k;
  };

  while (i < tokens.length) {
    const word = w(i)!;
    const next = w(i + 1);
    if (ADVERBS.has(word)) { i++; continue; }
    if (HEDGES.has(word)) { hedged = true; i++; continue; }
    if (word === 'not' || word === 'never') { negated = true; i++; continue; }
    if (word === 'no' && next === 'longer') { negated = true; i += 2; continue; }
    if (word === 'kind' || word === 'sort') { if (next === 'of') { i += 2; continue; } }
    if (word === 'will' || word === 'shall') { planned = true; i++; continue; }
    if (word === 'would' || word === 'd') {
      const k = skipAdverbs(i + 1);
      if ((w(k) === 'like' || w(k) === 'love') && w(k + 1) === 'to') { wants = true; i = k + 2; continue; }
      if (w(k) === 'rather') return { readings: [{ lemma: 'prefer', form: 'base' }], mainIndex: k, time: 'present', negated, hedged, wants, ability, phase };
      return undefined;
    }
    if (word === 'can') {
      if (w(i + 1) === 'not' && (w(i + 2) === 'stand' || w(i + 2) === 'bear')) {
        return { readings: [{ lemma: 'can not stand', form: 'base' }], mainIndex: i + 2, time: 'present', negated, hedged, wants, ability, phase };
      }
      ability = true; i++; continue;
    }
    if (word === 'could' || word === 'may' || word === 'might' || word === 'must') { hedged = true; i++; continue; }
    if ((word === 'do' || word === 'does' || word === 'did') && (next === 'not' || next === 'never' || isBase(w(skipAdverbs(i + 1))))) {
      did = word === 'did' ? 'past' : 'present';
      i++;
      continue;
    }
    if ((word === 'have' || word === 'has' || word === 'had') && i + 1 < tokens.length) {
      const k = skipAdverbs(i + 1);
      for (let j = i + 1; j < k; j++) if (w(j) === 'not' || w(j) === 'never') negated = true;
      if (w(k) === 'got' && word !== 'had') {
        return { readings: [{ lemma: 'have', form: word === 'has' ? 'third' : 'base' }], mainIndex: k, time: 'present', negated, hedged, wants, ability, phase };
      }
      if (w(k) === 'to') return undefined;
      if (isParticiple(w(k)) || w(k) === 'been') {
        have = word === 'had' ? 'past' : 'present';
        i = k;
        continue;
      }
    }
    if (word === 'used' && next === 'to') { usedTo = true; i += 2; continue; }
    if (word === 'going' && next === 'to' && isBase(w(i + 2)) && w(i + 2) !== 'the') { planned = true; i += 2; continue; }
    if (word === 'about' && next === 'to') { planned = true; i += 2; continue; }
    if (/^(plan|plans|planning|planned|intend|intends|intending|scheduled|due|set)$/.test(word) && next === 'to') { planned = true; i += 2; continue; }
    if (/^(want|wants|wanted|wanting|hope|hoping|hopes|wish|dream|dreaming|aim|aiming|eager|keen|dying|desperate|itching|longing)$/.test(word) && next === 'to') { wants = true; i += 2; continue; }
    if (/^(need|needs|needed|needing|try|trying|tried|supposed|forced|allowed|able|unable|afraid|scared|ready|willing|meant|remember|forgot|forget)$/.test(word) && next === 'to') return undefined;
    if (/^(thinking|considering|wondering|debating|deciding|torn)$/.test(word)) return undefined;
    if (/^(start|starts|started|starting|begin|begins|began|beginning)$/.test(word) && (isGerund(next) || next === 'to') && !hasSurfaceStartingWith(['start', next!])) {
      phase = 'start';
      i += next === 'to' ? 2 : 1;
      continue;
    }
    if (/^(stop|stops|stopped|stopping|quit|quits|quitting)$/.test(word) && isGerund(next) && !hasSurfaceStartingWith(['stop', next!])) { phase = 'stop'; i++; continue; }
    if (/^(give|gave|given|giving)$/.test(word) && next === 'up' && isGerund(w(i + 2))) { phase = 'stop'; i += 2; continue; }
    if (/^(keep|kept|keeps|continue|continued|continues)$/.test(word) && (isGerund(next) || next === 'to')) { i += next === 'to' ? 2 : 1; continue; }

    if (BE_PRESENT.has(word) || BE_PAST.has(word) || word === 'be' || word === 'been' || word === 'being') {
      const bePast = BE_PAST.has(word);
      const k = skipAdverbs(i + 1);
      for (let j = i + 1; j < k; j++) if (w(j) === 'not' || w(j) === 'never' || w(j) === 'longer') negated = true;
      if (w(k) === 'going' && w(k + 1) === 'to' && isBase(w(k + 2))) { planned = true; i = k + 2; continue; }
      if (w(k) === 'used' && w(k + 1) === 'to') return undefined;
      if (startsAuxiliaryConstruction(k)) { i = k; continue; }
      if (isGerund(w(k)) && !hasSurfaceStartingWith(['be', w(k)!])) {
        // Progressive: the gerund is the main verb.
        const time: VerbTime = planned ? 'planned' : usedTo ? 'used_to' : bePast ? 'past' : have === 'past' ? 'past_perfect' : have ? 'perfect' : 'progressive';
        return { readings: readVerb(w(k)!).filter((r) => r.form === 'gerund'), mainIndex: k, time, negated, hedged, wants, ability, phase };
      }
      const time: VerbTime = planned
        ? 'planned'
        : usedTo
          ? 'used_to'
          : have === 'past'
            ? 'past_perfect'
            : have
              ? 'perfect'
              : bePast
                ? 'past'
                : 'present';
      // The copula's complement starts after any adverbs and "not" ("am not a fan of").
      return { readings: [{ lemma: 'be', form: bePast ? 'past' : 'base' }], mainIndex: k - 1, time, negated, hedged, wants, ability, phase };
    }

    const readings = readVerb(word);
    if (readings.length === 0) return undefined;
    const formTime = (): VerbTime => {
      if (planned) return 'planned';
      if (usedTo) return 'used_to';
      if (have === 'past') return 'past_perfect';
      if (have) return 'perfect';
      if (did) return did;
      if (readings.some((r) => r.form === 'base' || r.form === 'third')) return 'present';
      if (readings.some((r) => r.form === 'past' || r.form === 'participle')) return 'past';
      return 'present';
    };
    return { readings, mainIndex: i, time: formTime(), negated, hedged, wants, ability, phase };
  }
  return undefined;
}
