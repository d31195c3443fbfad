import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRouter } from '../../app.js';
import { operations } from '../../openapi/operations.js';
import { startTestServer, type TestServer } from '../../../test/support/server.js';

let t: TestServer;
let doc: any;
beforeAll(async () => {
  t = await startTestServer();
  const res = await fetch(`${t.url}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/application\/json/);
  doc = await res.json();
});
afterAll(() => t?.close());

/** `/v1/memories/:id` and `/v1/memories/{id}` both become `/v1/memories/{}`. */
const normalise = (path: string) => path.replace(/:[A-Za-z_]+/g, '{}').replace(/\{[A-Za-z_]+\}/g, '{}');

describe('GET /openapi.json', () => {
  it('is OpenAPI 3.1 with the bearer scheme, served without a key', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it('documents every route of the API and nothing that is not one', () => {
    const routed = new Set<string>();
    for (const layer of apiRouter(t.services).stack) {
      // `/v1/users//memories` only answers the documented 422 for an empty `end_user`: it is the same operation.
      if (String(layer.path).includes('//')) continue;
      for (const method of layer.methods) if (method !== 'HEAD') routed.add(`${method} ${normalise(String(layer.path))}`);
    }
    const documented = new Set<string>();
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const method of Object.keys(item)) documented.add(`${method.toUpperCase()} ${normalise(path)}`);
    }
    expect([...routed].filter((r) => !documented.has(r)), 'routes without documentation').toEqual([]);
    expect([...documented].filter((d) => !routed.has(d)), 'documentation without a route').toEqual([]);
    expect(routed.size).toBeGreaterThanOrEqual(22);
  });

  it('gives every operation its error statuses, the error shape and resolvable references', () => {
    const text = JSON.stringify(doc);
    for (const ref of text.matchAll(/"\$ref":"#\/components\/(schemas|responses)\/(\w+)"/g)) {
      expect(doc.components[ref[1]][ref[2]], ref[0]).toBeDefined();
    }
    expect(doc.components.schemas.Error).toEqual(
      expect.objectContaining({ required: ['code', 'message'], additionalProperties: false }),
    );
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.responses['401'], `${method} ${path}`).toBeDefined();
        if (path !== '/v1/ping') for (const status of ['403', '422', '429']) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
        if (path.includes('{id}')) expect(op.responses['404'], `${method} ${path}`).toBeDefined();
      }
    }
    // The spec's per-endpoint lists.
    expect(Object.keys(doc.paths['/v1/memories/{id}'].patch.responses)).toEqual(expect.arrayContaining(['401', '404', '409', '422', '429']));
    expect(Object.keys(doc.paths['/v1/memories/search'].post.responses)).toEqual(expect.arrayContaining(['401', '422', '429', '503']));
  });

  it('describes request bodies and query parameters from the route schemas', () => {
    const add = doc.paths['/v1/memories'].post.requestBody.content['application/json'].schema;
    expect(add.required).toEqual(['content']);
    expect(add.properties.content).toEqual(expect.objectContaining({ type: 'string', maxLength: 16_000 }));
    expect(add.additionalProperties).toBe(false);
    const search = doc.paths['/v1/memories/search'].post.requestBody.content['application/json'].schema;
    expect(search.properties.limit).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 50, default: 15 }));
    const context = Object.fromEntries(doc.paths['/v1/context'].get.parameters.map((p: any) => [p.name, p]));
    expect(context.query.required).toBe(true);
    expect(context.token_budget.schema).toEqual(expect.objectContaining({ type: 'integer', default: 800 }));
    const facts = Object.fromEntries(doc.paths['/v1/facts'].get.parameters.map((p: any) => [p.name, p]));
    expect(Object.keys(facts)).toEqual(
      expect.arrayContaining(['user_id', 'entity', 'subject', 'predicate_family', 'as_of', 'include_invalidated', 'limit', 'offset']),
    );
    expect(facts.limit.schema).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 200, default: 50 }));
    expect(doc.paths['/v1/users/{end_user}/memories'].delete.parameters[0]).toEqual(expect.objectContaining({ name: 'end_user', in: 'path' }));
  });

  it('answers a maximal documented query string (16,000 characters, percent-encoded) instead of a bare 431', async () => {
    const res = await t.api().get(`/v1/context?query=${encodeURIComponent('ü€'.repeat(8_000))}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({ context: '', tokens: 0 }));
  });

  it('matches what the server really answers', async () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    for (const [name, schema] of Object.entries<any>(doc.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
    const conforms = (operationId: string, status: number, body: unknown) => {
      const op = operations.find((o) => o.operationId === operationId)!;
      const ref = status < 300 ? op.success.schema : 'Error';
      if (status >= 300) expect(op.errors, `${operationId} answered ${status}`).toContain(status);
      else expect(status).toBe(op.success.status);
      const validate = ajv.getSchema(`#/components/schemas/${ref}`)!;
      expect(validate(body), `${operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };
    const api = t.api();
    const added = await api.post('/v1/memories', { content: 'I live in Berlin and work at Siemens.', user_id: 'oa', metadata: { src: 'test' } });
    conforms('addMemory', added.status, added.body);
    await t.settle();
    const id = added.body.id;
    const calls: [string, Promise<{ status: number; body: unknown }>][] = [
      ['ping', api.get('/v1/ping')],
      ['getMemory', api.get(`/v1/memories/${id}`)],
      ['listMemories', api.get('/v1/memories?user_id=oa')],
      ['memoryHistory', api.get(`/v1/memories/${id}/history`)],
      ['searchMemories', api.post('/v1/memories/search', { query: 'Berlin', user_id: 'oa' })],
      ['getContext', api.get('/v1/context?query=where&user_id=oa')],
      ['listFacts', api.get('/v1/facts?user_id=oa&include_invalidated=true')],
      ['getProfile', api.get('/v1/profile?user_id=oa')],
      ['listUsers', api.get('/v1/users')],
      ['listAgents', api.get('/v1/agents')],
      ['listEvents', api.get('/v1/events')],
      ['listAudit', api.get('/v1/audit')],
      ['getMemory', api.get('/v1/memories/mem_doesnotexist')],
      ['getContext', api.get('/v1/context')],
    ];
    for (const [operationId, call] of calls) {
      const res = await call;
      conforms(operationId, res.status, res.body);
    }
    const fact = await api.post('/v1/facts', { subject: 'user', predicate: 'likes', object: 'tea', user_id: 'oa' });
    conforms('writeFact', fact.status, fact.body);
    const corrected = await api.patch(`/v1/facts/${fact.body.id}`, { object: 'coffee' });
    conforms('correctFact', corrected.status, corrected.body);
    const forgotten = await api.post(`/v1/facts/${corrected.body.id}/forget`, {});
    conforms('forgetFact', forgotten.status, forgotten.body);
    const batch = await api.post('/v1/batch', { memories: [{ content: 'I moved to Lisbon.', user_id: 'oa' }] });
    conforms('submitBatch', batch.status, batch.body);
    const batchStatus = await api.get(`/v1/batch/${batch.body.id}`);
    conforms('getBatch', batchStatus.status, batchStatus.body);
    const updated = await api.patch(`/v1/memories/${id}`, { content: 'I live in Munich.' });
    conforms('updateMemory', updated.status, updated.body);
    const deleted = await api.delete(`/v1/memories/${id}`);
    conforms('forgetMemory', deleted.status, deleted.body);
    const erased = await api.delete('/v1/users/oa/memories');
    conforms('eraseUser', erased.status, erased.body);
    const agent = await api.post('/v1/memories', { content: 'agent note', agent_id: 'bot' });
    conforms('addMemory', agent.status, agent.body);
    const purged = await api.delete('/v1/agents/bot');
    conforms('purgeAgent', purged.status, purged.body);
  }, 60_000);
});
