import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeVectorIndexContract } from '../contract/vector-contract.js';
import { openDatabase } from '../sqlite/store.js';
import { EmbeddedVectorIndex } from './embedded.js';

let dir: string | null = null;
let db: Database.Database | null = null;

describeVectorIndexContract(
  'embedded',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-vector-contract-'));
    db = openDatabase(dir);
    return EmbeddedVectorIndex.open(db);
  },
  async () => {
    db?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  },
);
