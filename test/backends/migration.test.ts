import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dropProductionData, productionEnv } from '../support/backends.js';
import { SHARED_CACHE_DIR, startTestServer, type TestServer } from '../support/server.js';
import { admin, expectSameExport, exportLines, seedWorkspace, workspaceView } from '../support/transfer.js';

/**
 * A workspace moved embedded → production → embedded with `admin workspace export` / `workspace restore`, against
 * real servers (FerretDB, Elasticsearch, Redis): after each move the API shows the same memories, histories, fact
 * timelines, agents, audit rows and search results, and an export of the moved workspace has the same records and
 * vectors as the original one.
 */
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'engram-migrate-'));
  dirs.push(d);
  return d;
};
const servers: TestServer[] = [];
const production = productionEnv('migrate');

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await dropProductionData(production).catch(() => undefined);
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('moving a workspace between modes', () => {
  it('embedded → production → embedded keeps every record, timeline and vector', async () => {
    const source = await startTestServer({}, { mode: 'embedded' });
    servers.push(source);
    const ids = await seedWorkspace(source.api(), () => source.settle());
    const original = await workspaceView(source.api(), ids);
    const crossOriginal = await workspaceView(source.api(), ids, { crossMode: true });
    const first = join(tempDir(), 'from-embedded.jsonl.gz');
    const exported = admin(source.env, 'workspace', 'export', '--workspace', 'test', '--to', first);
    expect(exported.status, exported.stderr).toBe(0);

    // into production: MongoDB protocol + Elasticsearch, vectors carried (same embedder)
    const toProduction = admin(production, 'workspace', 'restore', '--from', first);
    expect(toProduction.status, toProduction.stderr).toBe(0);
    expect(toProduction.result).toMatchObject({ workspace: 'test', vectors: 'carried', keys_revoked: 1 });
    const prod = await startTestServer(production, { mode: 'production' });
    servers.push(prod);
    expect(prod.services.store.kind).toBe('mongodb');
    expect(prod.services.vectors.kind).toBe('elasticsearch');
    expect(await workspaceView(prod.api(), ids, { crossMode: true })).toEqual(crossOriginal);
    expect((await prod.api(source.key).get('/v1/ping')).status).toBe(401);

    const second = join(tempDir(), 'from-production.jsonl');
    const fromProduction = admin(production, 'workspace', 'export', '--workspace', 'test', '--to', second);
    expect(fromProduction.status, fromProduction.stderr).toBe(0);
    expectSameExport(first, second);

    // a second restore into the same production store is refused and changes nothing
    const twice = admin(production, 'workspace', 'restore', '--from', first);
    expect(twice.status).toBe(2);
    expect(twice.stderr).toContain('already has workspace test');

    // and back to a fresh embedded data folder
    const back = tempDir();
    const toEmbedded = admin({ DATA_DIR: back, CACHE_DIR: SHARED_CACHE_DIR }, 'workspace', 'restore', '--from', second);
    expect(toEmbedded.status, toEmbedded.stderr).toBe(0);
    const third = join(tempDir(), 'back.jsonl.gz');
    expect(admin({ DATA_DIR: back, CACHE_DIR: SHARED_CACHE_DIR }, 'workspace', 'export', '--workspace', 'test', '--to', third).status).toBe(0);
    expectSameExport(first, third);
    expect(exportLines(third).filter((l) => l.kind === 'key')).toHaveLength(2); // the original key and production's new one, both revoked now
    const returned = await startTestServer({}, { mode: 'embedded', dataDir: back });
    servers.push(returned);
    expect(await workspaceView(returned.api(), ids)).toEqual(original);
  });
});
