import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../core/config.js';
import { createKey } from '../../core/commands/keys.js';
import { PLAN_NAMES } from '../../core/plans.js';
import { openStorage, openStore } from '../../core/bootstrap.js';
import type { Config } from '../../core/config.js';
import { reembedAll } from '../../core/commands/reembed.js';
import { ensureGloveCache } from '../../pipeline/embedding/index.js';
import { ALL_SCOPES, type Scope } from '../../storage/types.js';

const usage = `Usage:
  npm run --silent admin -- keys create --workspace <slug> --plan <hobby|developer|team|scale> [--scopes a,b] [--agent <id>]
  npm run --silent admin -- keys revoke <key_id>
  npm run --silent admin -- keys list
  npm run --silent admin -- cache build      (builds the GloVe binary cache ahead of the first start)
  npm run --silent admin -- reembed          (re-embeds every memory with the configured embedder; resumable)`;

const createOptions = z.object({
  workspace: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/i, 'must be a slug (letters, digits, - and _)'),
  plan: z.enum(PLAN_NAMES as [string, ...string[]]),
  scopes: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined))
    .pipe(z.array(z.enum(ALL_SCOPES as [Scope, ...Scope[]])).optional()),
  agent: z.string().min(1).max(256).optional(),
});

class UsageError extends Error {}

async function run(argv: string[]): Promise<unknown> {
  const [group, action, ...rest] = argv;
  const config = loadConfig();
  if (group === 'cache' && action === 'build') {
    const started = Date.now();
    const path = await ensureGloveCache(config.DATA_DIR, { cacheDir: config.CACHE_DIR });
    return { cache: path, ms: Date.now() - started };
  }
  if (group === 'reembed') return reembed(config);
  if (group !== 'keys' || !action) throw new UsageError(usage);
  const store = await openStore(config);
  try {
    if (action === 'create') {
      const { values } = parseArgs({
        args: rest,
        options: { workspace: { type: 'string' }, plan: { type: 'string' }, scopes: { type: 'string' }, agent: { type: 'string' } },
      });
      const parsed = createOptions.safeParse(values);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new UsageError(`--${issue.path.join('.') || 'options'}: ${issue.message}\n${usage}`);
      }
      const o = parsed.data;
      return await createKey(store, { workspace: o.workspace, plan: o.plan as any, scopes: o.scopes, agentId: o.agent ?? null });
    }
    if (action === 'revoke') {
      const keyId = rest[0];
      if (!keyId) throw new UsageError(usage);
      const key = await store.keys.get(keyId);
      if (!key) throw new UsageError(`No key ${keyId}`);
      await store.keys.revoke(keyId, new Date().toISOString());
      return { key_id: keyId, revoked: true };
    }
    if (action === 'list') {
      const workspaces = new Map((await store.workspaces.list()).map((w) => [w.id, w]));
      return {
        keys: (await store.keys.list()).map((k) => ({
          key_id: k.id,
          workspace: workspaces.get(k.workspaceId)?.slug ?? null,
          plan: workspaces.get(k.workspaceId)?.plan ?? null,
          scopes: k.scopes,
          agent_id: k.agentId,
          created_at: k.createdAt,
          revoked_at: k.revokedAt,
        })),
      };
    }
    throw new UsageError(usage);
  } finally {
    await store.close();
  }
}

/** Progress goes to stderr, one JSON line per page; the result to stdout. */
async function reembed(config: Config) {
  const { store, vectors, embedder } = await openStorage(config);
  try {
    return await reembedAll(store, vectors, embedder, (p) =>
      process.stderr.write(`${JSON.stringify({ reembedded: p.done, total: p.total })}\n`),
    );
  } finally {
    await vectors.close();
    await store.close();
  }
}

run(process.argv.slice(2))
  .then((result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  })
  .catch((error) => {
    process.stderr.write(`${error instanceof UsageError || error instanceof ConfigError ? error.message : (error?.stack ?? error)}\n`);
    process.exit(2);
  });
