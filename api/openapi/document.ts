import { z } from 'zod';
import { correctFactSchema } from '../routes/facts/schema.js';
import { isoDateTime } from '../validation.js';
import { operations, type OperationDoc } from './operations.js';
import { components } from './responses.js';

type JsonSchema = Record<string, any>;

/** What each error status means here; the body is always the `Error` schema. */
const errorDescriptions: Record<number, string> = {
  401: '`invalid_key`: missing, malformed or revoked key',
  403: '`forbidden` (the key lacks the scope, or is confined to another agent) or `agent_cap_exceeded`',
  404: '`not_found`: no such resource in this workspace (another workspace’s resource is 404 too)',
  409: '`stale_write` or `fact_not_current`',
  422: '`invalid_request`: validation failed; the message names the field (`<field>: <reason>`)',
  429: '`rate_limit_exceeded` (with `Retry-After`, seconds) or `quota_exceeded`',
  503: '`search_unavailable`, `queue_unavailable` or `service_unavailable` (with `Retry-After`, seconds): a backend is temporarily down; retry',
};

// Dates are strings on the wire; document what the validator accepts.
z.globalRegistry.add(isoDateTime, {
  description: 'ISO 8601 date or date-time, e.g. `2025-01-31` or `2025-01-31T12:00:00Z`',
  examples: ['2025-01-31T12:00:00Z'],
});

// A correction names at least one of subject, predicate, object (a zod refinement).
z.globalRegistry.add(correctFactSchema, { minProperties: 1 });

/**
 * Query values arrive as strings and the route schemas parse them
 * (`queryInt`: string → integer in a range, then a default). Document what a
 * caller sends: an integer with its range, and the default an absent value takes.
 */
function queryOverride(ctx: { zodSchema: any; jsonSchema: JsonSchema }) {
  const def = ctx.zodSchema._zod.def;
  if (def.type !== 'pipe') return;
  if (def.out?._zod.def.type === 'number') {
    for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
    const { $schema: _, ...numeric } = z.toJSONSchema(def.out) as JsonSchema;
    Object.assign(ctx.jsonSchema, numeric);
  } else if (def.out?._zod.def.type === 'transform' && def.in?._zod.def.type === 'optional') {
    try {
      let fallback = def.out._zod.def.transform(undefined, { value: undefined, issues: [] });
      if (typeof fallback === 'boolean' && ctx.jsonSchema.type === 'string') fallback = String(fallback);
      if (fallback !== undefined) ctx.jsonSchema.default = fallback;
    } catch {
      // a transform that needs a value has no default
    }
  }
}

const strip = ({ $schema: _s, $id: _i, ...rest }: JsonSchema): JsonSchema => rest;

const inputSchema = (schema: z.ZodType): JsonSchema =>
  strip(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', override: queryOverride as any }) as JsonSchema);

function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const out = z.toJSONSchema(registry, { io: 'output', uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(Object.entries(out.schemas).map(([id, schema]) => [id, strip(schema)]));
}

function parametersOf(op: OperationDoc): JsonSchema[] {
  const params: JsonSchema[] = [];
  for (const [name, description] of Object.entries(op.pathParams ?? {})) {
    params.push({ name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 } });
  }
  if (op.query) {
    const schema = inputSchema(op.query);
    const required = new Set<string>(schema.required ?? []);
    for (const [name, property] of Object.entries<JsonSchema>(schema.properties ?? {})) {
      const { description, ...rest } = property;
      params.push({
        name,
        in: 'query',
        required: required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
        ...(op.queryExample?.[name] !== undefined ? { example: op.queryExample[name] } : {}),
      });
    }
  }
  return params;
}

function operationObject(op: OperationDoc): JsonSchema {
  const responses: JsonSchema = {
    [op.success.status]: {
      description: op.success.description,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.success.schema}` } } },
    },
  };
  for (const status of [...new Set(op.errors)].sort()) {
    responses[status] = { $ref: `#/components/responses/E${status}` };
  }
  const scopeNote = op.scope ? `\n\nScope: \`${op.scope}\`.` : '';
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description || scopeNote ? { description: `${op.description ?? ''}${scopeNote}`.trim() } : {}),
    ...(op.auth ? {} : { security: [] }),
    parameters: parametersOf(op),
    ...(op.body
      ? {
          requestBody: {
            required: !op.bodyOptional,
            content: {
              'application/json': { schema: inputSchema(op.body), ...(op.bodyExample !== undefined ? { example: op.bodyExample } : {}) },
            },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI 3.1 document served at `/openapi.json`. */
export function buildOpenApiDocument(options: { version: string; serverUrl?: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const errorResponses = Object.fromEntries(
    Object.entries(errorDescriptions).map(([status, description]) => [
      `E${status}`,
      {
        description,
        ...(status === '429' ? { headers: { 'Retry-After': { description: 'Seconds to wait (rate limit only)', schema: { type: 'string' } } } } : {}),
        ...(status === '503' ? { headers: { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } } } } : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Engram',
      version: options.version,
      description:
        'Long-term memory for AI agents: store text, get back typed facts that change over time and prompt-ready context. ' +
        'Every request carries `Authorization: Bearer <key>`; errors are always `{code, message}`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    tags: ['Memories', 'Retrieval', 'Facts', 'Scopes', 'Batch', 'Account'].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An Engram API key (`eng_…`)' } },
      schemas: componentSchemas(),
      responses: errorResponses,
    },
  };
}
