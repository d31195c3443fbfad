import type OpenAI from 'openai';
import { z } from 'zod';
import { PREDICATE_FAMILIES, TENSES, type ExtractedFact, type ExtractionInput, type FactExtractor } from '../types.js';
import { LlmOutputError, completeJson } from './openai-client.js';
import { ANY_OBJECT, PREDICATES, canonicalizeVerb, familyOf, isKnownPredicate, lookupPredicate, toPredicateName } from './taxonomy.js';
import { MAX_CONTENT_CHARS } from './rules/fact-extractor.js';

/**
 * Fact extraction through an OpenAI-compatible chat model. The reply is
 * constrained by a JSON schema (predicates limited to the taxonomy) and then
 * validated with zod. Invalid JSON or a reply that breaks the schema throws
 * LlmOutputError (the pipeline retries). A predicate outside the taxonomy that
 * still gets through is mapped via canonicalizeVerb, else kept as snake_case
 * with family 'other' - the taxonomy, not the model, decides every family.
 */

const SUBJECT_TYPES = ['user', 'person', 'place', 'organization', 'thing', 'unknown'] as const;

const llmFactSchema = z.object({
  subject: z.string().trim().min(1),
  subjectType: z.enum(SUBJECT_TYPES),
  predicate: z.string().trim().min(1),
  predicateRaw: z.string(),
  family: z.enum(PREDICATE_FAMILIES),
  object: z.string().trim().min(1),
  objectIsLiteral: z.boolean(),
  negated: z.boolean(),
  tense: z.enum(TENSES as unknown as ['current', 'past', 'planned']),
  validFrom: z.string().nullable(),
  validTo: z.string().nullable(),
  confidence: z.number().min(0).max(1),
});
const llmReplySchema = z.object({ facts: z.array(llmFactSchema) });
export type LlmFact = z.infer<typeof llmFactSchema>;

export function extractionJsonSchema(): Record<string, unknown> {
  const nullableString = { type: ['string', 'null'] };
  return {
    type: 'object',
    additionalProperties: false,
    required: ['facts'],
    properties: {
      facts: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['subject', 'subjectType', 'predicate', 'predicateRaw', 'family', 'object', 'objectIsLiteral', 'negated', 'tense', 'validFrom', 'validTo', 'confidence'],
          properties: {
            subject: { type: 'string' },
            subjectType: { type: 'string', enum: [...SUBJECT_TYPES] },
            predicate: { type: 'string', enum: PREDICATES.map((p) => p.name) },
            predicateRaw: { type: 'string' },
            family: { type: 'string', enum: [...PREDICATE_FAMILIES] },
            object: { type: 'string' },
            objectIsLiteral: { type: 'boolean' },
            negated: { type: 'boolean' },
            tense: { type: 'string', enum: [...TENSES] },
            validFrom: { ...nullableString, description: 'ISO 8601 date when the text states when the relation starts (or the planned date); else null' },
            validTo: { ...nullableString, description: 'ISO 8601 date when the text states when a past relation ended; else null' },
            confidence: { type: 'number' },
          },
        },
      },
    },
  };
}

export function extractionSystemPrompt(): string {
  const predicates = PREDICATES.map((p) => `- ${p.name} (${p.family}, ${p.cardinality}-valued, object: ${p.objectKind}): ${p.description}`).join('\n');
  return [
    'You extract durable facts about people from a message written to an AI assistant. Reply with JSON only.',
    'Rules:',
    '- Only what the user states counts. In a chat transcript ignore assistant/ai/system lines.',
    '- The first person ("I", "me", "my", "we") is the subject "user" with subjectType "user".',
    '- A named third person is the subject by name ("Anna works at Siemens" -> subject "Anna"). "my sister Anna lives in Rome" yields user has_sister Anna AND Anna lives_in Rome.',
    '- An unnamed relative is "user\'s <relation>", e.g. "user\'s sister".',
    `- Use only these predicates:\n${predicates}`,
    '- Denials set negated=true ("I don\'t eat meat any more" -> eats meat, negated). "I quit my job" -> works_at "*" negated. "I don\'t like X" -> dislikes X.',
    '- tense: current, past (used to / until a past date: the relation is over), planned (future: moving next month).',
    '- validFrom: ISO date the relation starts when stated ("since March 2021", "last year", planned date), resolved against the reference time; else null. validTo: only for past relations with a stated end.',
    '- confidence: 0.9 for plain statements, about 0.6 when hedged ("I think", "maybe").',
    '- Questions, greetings, small talk and requests yield {"facts": []}.',
    '- Objects are short noun phrases without articles ("Berlin", "dog", "software engineer").',
  ].join('\n');
}

function parseDate(value: string | null, field: string): Date | null {
  if (value === null || value.trim() === '') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new LlmOutputError(`model returned an invalid ${field}: ${value}`);
  return date;
}

function canonicalPredicate(predicate: string, predicateRaw: string): string {
  if (isKnownPredicate(predicate)) return predicate;
  return canonicalizeVerb(predicateRaw) ?? canonicalizeVerb(predicate.replace(/_/g, ' ')) ?? toPredicateName(predicate);
}

/** Maps validated model output to ExtractedFact (exported for tests). */
export function toExtractedFacts(reply: unknown): ExtractedFact[] {
  const parsed = llmReplySchema.safeParse(reply);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new LlmOutputError(`model output does not match the fact schema: ${issues}`);
  }
  return parsed.data.facts.map((f) => {
    const predicate = canonicalPredicate(f.predicate, f.predicateRaw);
    const firstPerson = /^(?:i|me|my|myself|we|us|user|the user)$/i.test(f.subject);
    return {
      subject: firstPerson ? 'user' : f.subject,
      subjectType: firstPerson ? 'user' : f.subjectType === 'user' ? 'unknown' : f.subjectType,
      predicate,
      predicateRaw: f.predicateRaw,
      family: familyOf(predicate),
      object: f.object,
      objectIsLiteral: f.object === ANY_OBJECT || (lookupPredicate(predicate)?.objectKind === 'literal') || f.objectIsLiteral,
      negated: f.negated,
      tense: f.tense,
      validFrom: parseDate(f.validFrom, 'validFrom'),
      validTo: parseDate(f.validTo, 'validTo'),
      confidence: f.confidence,
    };
  });
}

export interface LlmFactExtractorOptions {
  client: OpenAI;
  model: string;
}

export class LlmFactExtractor implements FactExtractor {
  constructor(private readonly options: LlmFactExtractorOptions) {}

  async extractFacts(input: ExtractionInput): Promise<ExtractedFact[]> {
    const content = input.content.slice(0, MAX_CONTENT_CHARS);
    if (content.trim().length < 4) return [];
    const reply = await completeJson(this.options.client, {
      model: this.options.model,
      system: extractionSystemPrompt(),
      user: `Reference time: ${input.referenceTime.toISOString()}\n\nContent:\n"""\n${content}\n"""`,
      schemaName: 'extracted_facts',
      schema: extractionJsonSchema(),
    });
    return toExtractedFacts(reply);
  }
}
