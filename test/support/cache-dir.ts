import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** GloVe's binary cache is built once per machine and shared by every test server. */
export const SHARED_CACHE_DIR = join(tmpdir(), 'engram-test-cache');
