import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeStoreContract } from '../contract/store-contract.js';
import { SqliteStore } from './store.js';

let dir: string | null = null;

describeStoreContract(
  'sqlite',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-sqlite-contract-'));
    return SqliteStore.open(dir);
  },
  async (store) => {
    await store.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
);
