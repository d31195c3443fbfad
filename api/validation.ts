import { z } from 'zod';
import { invalidRequest } from '../core/errors.js';
import { describeJsonProblem, jsonShapeProblem, type JsonLimits } from './json-shape.js';

/** `memories[3].content` from a zod issue path. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || 'body';
}

const typeNames: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  record: 'an object',
};

/** The value at a zod issue path in the raw input (zod 4 does not report inputs by default). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: any = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = value[key as any];
  }
  return value;
}

function reason(issue: z.core.$ZodIssue, input: unknown): { path: readonly PropertyKey[]; text: string } {
  switch (issue.code) {
    case 'invalid_type': {
      if (valueAt(input, issue.path) === undefined) return { path: issue.path, text: 'is required' };
      return { path: issue.path, text: `must be ${typeNames[issue.expected] ?? issue.expected}` };
    }
    case 'unrecognized_keys':
      return { path: [...issue.path, issue.keys[0]], text: 'unknown field' };
    case 'too_small':
      if (issue.origin === 'string') return { path: issue.path, text: Number(issue.minimum) <= 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters` };
      if (issue.origin === 'array') return { path: issue.path, text: `must contain at least ${issue.minimum} item(s)` };
      return { path: issue.path, text: `must be at least ${issue.minimum}` };
    case 'too_big':
      if (issue.origin === 'string') return { path: issue.path, text: `must be at most ${issue.maximum} characters` };
      if (issue.origin === 'array') return { path: issue.path, text: `must contain at most ${issue.maximum} items` };
      return { path: issue.path, text: `must be at most ${issue.maximum}` };
    case 'invalid_value':
      return { path: issue.path, text: `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { path: issue.path, text: issue.message };
  }
}

/**
 * Parses `input` or throws 422 `invalid_request` with `<field>: <reason>` for the first problem.
 * `field` names the input itself (a path parameter such as `id`); bodies default to `body`.
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { path, text } = reason(result.error.issues[0], input);
  const name = field === undefined ? fieldPath(path) : fieldPath([field, ...path]);
  throw invalidRequest(`${name}: ${text}`);
}

// ---------------------------------------------------------------- shared field schemas

/** ISO 8601 date or date-time; returns a normalised ISO UTC string. */
export const isoDateTime = z
  .string({ error: (i) => (i.input === undefined ? undefined : 'must be an ISO 8601 string') })
  .refine((s) => /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s.trim()) && !Number.isNaN(Date.parse(s)), {
    message: 'must be an ISO 8601 date or date-time',
  })
  .transform((s) => new Date(Date.parse(s.trim())).toISOString());

/** A free-form scope identifier such as user_id. */
export const scopeId = z.string().min(1).max(256);

/** Documented limits of `metadata`, checked without recursion before anything serialises it. */
export const METADATA_LIMITS: JsonLimits = { maxDepth: 10, maxChars: 64_000 };

export const metadataSchema = z.record(z.string(), z.unknown()).superRefine((m, ctx) => {
  const problem = jsonShapeProblem(m, METADATA_LIMITS);
  if (problem) ctx.addIssue({ code: 'custom', message: describeJsonProblem(problem) });
});

/** Longest accepted path id (resource ids, `end_user`, agent ids). */
export const MAX_PATH_ID_CHARS = 256;

/**
 * A path parameter naming a resource. Its shape is not checked beyond this: an id
 * the server never minted names no resource, so it is a 404, not a 422.
 */
export const pathIdSchema = z
  .string()
  .min(1)
  .max(MAX_PATH_ID_CHARS)
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), { message: 'must not contain control characters' })
  .refine((s) => s.trim().length > 0, { message: 'must not be blank' });

/** The named path parameter, or 422 `<name>: <reason>`. */
export const pathParam = (name: string, raw: string | undefined): string => validate(pathIdSchema, raw ?? '', name);

/** Query-string integer within a range, with a default. */
export const queryInt = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'must be an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((v) => v ?? fallback);

/** Clients send booleans as `true`, and only when true. */
export const queryBool = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');
