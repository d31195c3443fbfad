import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.js';

const repo = new URL('../..', import.meta.url).pathname;

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

type Connect = (key: string) => Promise<Client>;

const overHttp: Connect = async (key) => {
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  return client;
};

const overStdio: Connect = async (key) => {
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npm',
      args: ['run', '--silent', 'mcp'],
      cwd: repo,
      env: { ...(process.env as Record<string, string>), ENGRAM_URL: t.url, ENGRAM_API_KEY: key },
      stderr: 'pipe',
    }),
  );
  return client;
};

const json = (res: any) => res.structuredContent as any;

describe.each([
  ['streamable HTTP at /mcp', overHttp],
  ['stdio (npm run mcp)', overStdio],
])('MCP over %s', (transport, connect) => {
  const user = `mcp-${transport.startsWith('stdio') ? 'stdio' : 'http'}`;
  let client: Client;
  beforeAll(async () => {
    client = await connect(t.key);
  }, 60_000);
  afterAll(() => client?.close());

  it('lists the compat-notes tools and the extras', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName)).toEqual(expect.arrayContaining(['get_context', 'add', 'search', 'get_facts', 'get_profile', 'get_memory', 'forget']));
    expect((byName.get_context.inputSchema.properties as any).token_budget.default).toBe(800);
    expect((byName.search.inputSchema.properties as any).limit.default).toBe(15);
    expect((byName.get_facts.inputSchema.properties as any).limit.default).toBe(50);
    expect((byName.get_facts.inputSchema.properties as any).include_invalidated.default).toBe(false);
    expect(byName.add.inputSchema.required).toEqual(['content']);
  });

  it('adds, recalls, searches, reads facts and profile, and forgets', async () => {
    const added = await client.callTool({ name: 'add', arguments: { content: 'I live in Bergen and my sister Ingrid works at Statkraft.', user_id: user } });
    expect(added.isError).toBeFalsy();
    const id = json(added).id;
    expect(id).toMatch(/^mem_/);
    await t.settle();

    const memory = await client.callTool({ name: 'get_memory', arguments: { memory_id: id } });
    expect(json(memory).status).toBe('ready');

    const context = await client.callTool({ name: 'get_context', arguments: { query: 'where do I live', user_id: user } });
    expect((context.content as any)[0].text).toContain('Bergen');
    expect(json(context).tokens).toBeLessThanOrEqual(800);

    const search = await client.callTool({ name: 'search', arguments: { query: 'Bergen', user_id: user } });
    expect(json(search).results[0].id).toBe(id);

    const facts = await client.callTool({ name: 'get_facts', arguments: { user_id: user, entity: 'Ingrid' } });
    expect(json(facts).facts.map((f: any) => `${f.subject} ${f.predicate} ${f.object}`)).toEqual(expect.arrayContaining(['Ingrid works_at Statkraft']));

    const profile = await client.callTool({ name: 'get_profile', arguments: { user_id: user } });
    expect(json(profile).by_family.places.map((f: any) => f.object)).toContain('Bergen');

    const forgotten = await client.callTool({ name: 'forget', arguments: { memory_id: id } });
    expect(json(forgotten)).toEqual(expect.objectContaining({ id, status: 'forgotten' }));
    const after = await client.callTool({ name: 'get_facts', arguments: { user_id: user } });
    expect(json(after).total).toBe(0);
    const history = await client.callTool({ name: 'get_facts', arguments: { user_id: user, include_invalidated: true } });
    expect(json(history).total).toBeGreaterThan(0);
  }, 60_000);

  it('answers with the API’s errors, scopes and validation', async () => {
    const missing = await client.callTool({ name: 'get_memory', arguments: { memory_id: 'mem_doesnotexist' } });
    expect(missing.isError).toBe(true);
    expect((missing.content as any)[0].text).toMatch(/^404 not_found/);
    const empty = await client.callTool({ name: 'add', arguments: { content: '' } });
    expect(empty.isError).toBe(true);
    expect((empty.content as any)[0].text).toMatch(/^422 invalid_request: content/);

    const readOnly = await t.keyFor({ workspace: 'test', scopes: ['memories:read'] });
    const reader = await connect(readOnly.key);
    try {
      const refused = await reader.callTool({ name: 'add', arguments: { content: 'should not be stored' } });
      expect(refused.isError).toBe(true);
      expect((refused.content as any)[0].text).toMatch(/^403 forbidden/);
      const read = await reader.callTool({ name: 'get_facts', arguments: {} });
      expect(read.isError).toBeFalsy();
    } finally {
      await reader.close();
    }
  }, 60_000);
});

describe('/mcp authentication', () => {
  it('is 401 without a valid key, in the API’s error shape', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    for (const auth of [undefined, 'Bearer eng_not_a_key']) {
      const res = await fetch(`${t.url}/mcp`, { method: 'POST', body, headers: auth ? { ...headers, Authorization: auth } : headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ code: 'invalid_key', message: 'Invalid or missing API key' });
    }
    const client = new Client({ name: 'engram-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`)))).rejects.toThrow();
  });

  it('npm run mcp without a key exits with a message', async () => {
    const { spawnSync } = await import('node:child_process');
    const env = { ...process.env, ENGRAM_API_KEY: '' };
    const run = spawnSync('npm', ['run', '--silent', 'mcp'], { cwd: repo, env, encoding: 'utf8', timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('ENGRAM_API_KEY is required');
  }, 40_000);
});
