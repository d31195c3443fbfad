import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/support/server.js';

/**
 * A path id that names no resource of the caller's workspace is 404 `not_found`, whatever
 * its shape; 422 only for an empty, oversized or control-character id, naming the parameter.
 */
let t: TestServer;
let otherKey: string;
let own: { memory: string; fact: string; batch: string };
let foreign: { memory: string; fact: string; batch: string };

async function seed(key: string, agent: string) {
  const api = t.api(key);
  const memory = (await api.post('/v1/memories', { content: 'I live in Porto.', user_id: 'ids', agent_id: agent })).body.id as string;
  const fact = (await api.post('/v1/facts', { subject: 'user', predicate: 'likes', object: 'tea', user_id: 'ids', agent_id: agent })).body.id as string;
  const batch = (await api.post('/v1/batch', { memories: [{ content: 'I work at Siemens.', user_id: 'ids', agent_id: agent }] })).body.id as string;
  await t.settle(key);
  return { memory, fact, batch };
}

beforeAll(async () => {
  t = await startTestServer();
  otherKey = (await t.keyFor({ workspace: 'ids-other' })).key;
  own = await seed(t.key, 'ids-agent');
  foreign = await seed(otherKey, 'foreign-agent');
});
afterAll(async () => t?.close());

/** Ids of every shape but the server's: prefixes of other resources, encoded slashes, traversal, injection, unicode. */
const unknownShapes = (resource: 'memory' | 'fact' | 'batch') => [
  'batch_01JABCDEF',
  'bat_01JABCDEFGHJKMNPQRSTVWXYZ',
  'mem_01JABCDEFGHJKMNPQRSTVWXYZ',
  'fct_01JABCDEFGHJKMNPQRSTVWXYZ',
  'not-an-id',
  `${encodeURIComponent('mem_x/history')}`,
  encodeURIComponent('../../etc/passwd'),
  encodeURIComponent("' OR 1=1 --"),
  encodeURIComponent('{"$ne":null}'),
  encodeURIComponent('ünïcødé-🦄'),
  encodeURIComponent('a b'),
  'x'.repeat(256),
  // another workspace's real id
  encodeURIComponent(foreign[resource]),
];

const expectNotFound = (res: { status: number; body: any }, what: string) => {
  expect(res.status, what).toBe(404);
  expect(res.body.code, what).toBe('not_found');
};

const expectInvalid = (res: { status: number; body: any }, param: string, what: string) => {
  expect(res.status, what).toBe(422);
  expect(res.body.code, what).toBe('invalid_request');
  expect(res.body.message, what).toMatch(new RegExp(`^${param}: `));
};

/** Every endpoint with a path id: method, path for an id, body. */
const endpoints = {
  memory: [
    ['GET', (id: string) => `/v1/memories/${id}`, undefined],
    ['PATCH', (id: string) => `/v1/memories/${id}`, { content: 'x' }],
    ['DELETE', (id: string) => `/v1/memories/${id}`, undefined],
    ['GET', (id: string) => `/v1/memories/${id}/history`, undefined],
  ],
  fact: [
    ['PATCH', (id: string) => `/v1/facts/${id}`, { object: 'coffee' }],
    ['POST', (id: string) => `/v1/facts/${id}/forget`, {}],
  ],
  batch: [['GET', (id: string) => `/v1/batch/${id}`, undefined]],
} as const;

describe('path ids', () => {
  for (const [resource, list] of Object.entries(endpoints) as [keyof typeof endpoints, (typeof endpoints)[keyof typeof endpoints]][]) {
    it(`${resource} endpoints: ids of any other shape, and other workspaces' ids, are 404`, async () => {
      for (const [method, path, body] of list) {
        for (const id of unknownShapes(resource)) {
          const res = await t.api().request(method, path(id), body);
          expectNotFound(res, `${method} ${path(id).slice(0, 80)}`);
        }
      }
    });

    it(`${resource} endpoints: empty-looking, oversized and control-character ids are 422 naming id`, async () => {
      for (const [method, path, body] of list) {
        for (const id of ['x'.repeat(257), '%00', 'a%0Ab', '%7F', '%20%20']) {
          expectInvalid(await t.api().request(method, path(id), body), 'id', `${method} ${path(id).slice(0, 40)}`);
        }
      }
    });
  }

  it('the caller’s own ids still resolve', async () => {
    expect((await t.api().get(`/v1/memories/${own.memory}`)).status).toBe(200);
    expect((await t.api().get(`/v1/memories/${own.memory}/history`)).status).toBe(200);
    expect((await t.api().get(`/v1/batch/${own.batch}`)).status).toBe(200);
    expect((await t.api().patch(`/v1/facts/${own.fact}`, { object: 'green tea' })).status).toBe(200);
  });

  it('an agent-confined key sees other agent namespaces’ ids as 404', async () => {
    const confined = (await t.keyFor({ workspace: 'test', agentId: 'someone-else' })).key;
    expectNotFound(await t.api(confined).get(`/v1/memories/${own.memory}`), 'memory');
    expectNotFound(await t.api(confined).patch(`/v1/facts/${own.fact}`, { object: 'x' }), 'fact');
    expectNotFound(await t.api(confined).delete(`/v1/agents/ids-agent`), 'agent');
  });

  it('agents: unknown, foreign and odd ids are 404; oversized or control characters 422 naming id', async () => {
    for (const id of ['foreign-agent', 'nope', encodeURIComponent('a/b'), encodeURIComponent("'; DROP TABLE agents; --"), 'x'.repeat(256)]) {
      expectNotFound(await t.api().delete(`/v1/agents/${id}`), id);
    }
    for (const id of ['x'.repeat(257), '%00', '%20']) expectInvalid(await t.api().delete(`/v1/agents/${id}`), 'id', id);
  });

  it('user erasure: any end_user is 200 (the spec has no 404 there); blank, oversized or control characters are 422 naming end_user', async () => {
    for (const id of ['nobody', encodeURIComponent('a/b'), encodeURIComponent('ünï 🦄'), 'x'.repeat(256)]) {
      const res = await t.api().delete(`/v1/users/${id}/memories`);
      expect(res.status, id).toBe(200);
      expect(res.body.memories_forgotten).toBe(0);
    }
    for (const id of ['', 'x'.repeat(257), '%00', '%09', '%20']) expectInvalid(await t.api().delete(`/v1/users/${id}/memories`), 'end_user', id);
  });
});
