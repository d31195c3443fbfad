import type { EntityExtractor, EntityType, ExtractedEntity, ExtractedFact, ExtractionInput } from '../../types.js';
import { familyOf } from '../taxonomy.js';
import { MAX_CONTENT_CHARS } from './fact-extractor.js';
import { PETS, RELATIONS } from './lexicon.js';
import { stripMarkdown } from './markdown.js';
import { findNamedEntities } from './named-entities.js';
import { ruleFactsOf } from './recent-facts.js';
import { userText } from './transcript.js';

/**
 * People, places and organisations (compromise) in what the user wrote, plus
 * "things" the user owns or has preferences about (from the rule fact extractor).
 * Relatives named with a possessive get the relation as an alias:
 * "my sister Anna" -> Anna, aliases ["my sister", "sister"].
 */

const THING_PREDICATES = new Set(['owns', 'has_pet', 'drives', 'uses', 'likes', 'dislikes', 'prefers', 'plays', 'supports', 'subscribes_to', 'invests_in']);
const RELATION_WORD_BY_PREDICATE: Record<string, string> = {
  has_sister: 'sister', has_brother: 'brother', has_mother: 'mother', has_father: 'father', has_son: 'son', has_daughter: 'daughter',
  has_child: 'child', has_friend: 'friend', has_colleague: 'colleague', has_manager: 'manager', has_roommate: 'roommate',
  married_to: 'spouse', partner: 'partner', has_relative: 'relative', divorced_from: 'ex-spouse',
};
const LEADING_NOISE = new RegExp(`^(?:(?:my|our|his|her|their|the|a|an|dear|dr\\.?|mr\\.?|mrs\\.?|ms\\.?)\\s+|(?:${Object.keys(RELATIONS).sort((a, b) => b.length - a.length).map((k) => k.replace(/[-]/g, '\\-')).join('|')})\\s+)+`, 'i');

const PET_WORDS = [...PETS].sort((a, b) => b.length - a.length).join('|');
/** "my dog Rex", "a cat named Luna", "two cats called Luna and Milo". */
const NAMED_PET = new RegExp(`\\b(?:my|our)\\s+(${PET_WORDS})\\s+([A-Z][\\p{L}'-]+)|\\b(${PET_WORDS})s?\\s*,?\\s+(?:named|called)\\s+([A-Z][\\p{L}'-]+)(?:\\s+and\\s+([A-Z][\\p{L}'-]+))?`, 'giu');

export function canonicalEntityKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/[’']s$/, '').replace(/[^\p{L}\p{N}&+ .'-]+/gu, ' ').replace(/\s+/g, ' ').trim();
}

function cleanName(text: string): string {
  return text.replace(/[.,!?;:"“”()]+$/g, '').replace(/^[("“]+/, '').replace(LEADING_NOISE, '').replace(/[’']s$/, '').trim();
}

class EntityCollector {
  private readonly byKey = new Map<string, ExtractedEntity>();

  add(name: string, type: EntityType, aliases: string[] = []): void {
    const clean = cleanName(name);
    if (clean.length < 2 || clean.toLowerCase() === 'user') return;
    const canonical = canonicalEntityKey(clean);
    if (!canonical) return;
    const existing = this.byKey.get(canonical);
    if (existing) {
      for (const alias of aliases) if (!existing.aliases.includes(alias) && alias.toLowerCase() !== canonical) existing.aliases.push(alias);
      // A relation alias settles the type: "my sister Anna" is a person even if compromise guessed a place.
      if (aliases.length > 0 && type === 'person') existing.type = 'person';
      return;
    }
    this.byKey.set(canonical, { name: clean, canonical, type, aliases: aliases.filter((a) => a.toLowerCase() !== canonical) });
  }

  list(): ExtractedEntity[] {
    return [...this.byKey.values()];
  }
}

function relationAliases(fact: ExtractedFact): string[] {
  const fromRaw = /^(?:my|our)\s+(.+)$/i.exec(fact.predicateRaw.trim());
  if (fromRaw) return [`my ${fromRaw[1].toLowerCase()}`, fromRaw[1].toLowerCase()];
  const word = RELATION_WORD_BY_PREDICATE[fact.predicate];
  return word ? [word] : [];
}

export function extractEntitiesWithRules(input: ExtractionInput): ExtractedEntity[] {
  const content = input.content.length > MAX_CONTENT_CHARS ? input.content.slice(0, MAX_CONTENT_CHARS) : input.content;
  const collector = new EntityCollector();
  const facts = ruleFactsOf({ content, referenceTime: input.referenceTime });

  for (const fact of facts) {
    if (familyOf(fact.predicate) === 'people' && fact.subject === 'user' && fact.object !== '*') collector.add(fact.object, 'person', relationAliases(fact));
  }
  for (const block of userText(content)) {
    const plain = stripMarkdown(block);
    for (const m of plain.matchAll(NAMED_PET)) {
      const kind = (m[1] ?? m[3]).toLowerCase();
      for (const name of [m[2], m[4], m[5]]) if (name) collector.add(name, 'thing', [`my ${kind}`, kind]);
    }
    for (const { name, type } of findNamedEntities(plain)) collector.add(name, type);
  }
  for (const fact of facts) {
    if (fact.subject !== 'user' && !fact.subject.startsWith("user's") && (fact.subjectType === 'person' || fact.subjectType === 'organization' || fact.subjectType === 'place')) {
      collector.add(fact.subject, fact.subjectType);
    }
    if (fact.objectIsLiteral || fact.object === '*') continue;
    const spec = familyOf(fact.predicate);
    if (fact.predicate === 'lives_in' || fact.predicate === 'is_from' || fact.predicate === 'born_in' || fact.predicate === 'visited' || fact.predicate === 'trip_to' || fact.predicate === 'wants_to_visit') {
      collector.add(fact.object, 'place');
    } else if (fact.predicate === 'works_at' || fact.predicate === 'studies_at' || fact.predicate === 'banks_with' || fact.predicate === 'graduated_from' || fact.predicate === 'member_of') {
      collector.add(fact.object, 'organization');
    } else if (THING_PREDICATES.has(fact.predicate) || spec === 'ownership') {
      collector.add(fact.object, 'thing');
    }
  }
  return collector.list();
}

export class RuleEntityExtractor implements EntityExtractor {
  async extractEntities(input: ExtractionInput): Promise<ExtractedEntity[]> {
    return extractEntitiesWithRules(input);
  }
}
