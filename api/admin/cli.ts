import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../core/config.js';
import { createKey } from '../../core/commands/keys.js';
import { PLAN_NAMES } from '../../core/plans.js';
import { openStorage, openStore } from '../../composition/bootstrap.js';
import type { Config } from '../../core/config.js';
import { reembedAll } from '../../core/commands/reembed.js';
import { ensureGloveCache } from '../../pipeline/embedding/index.js';
import { ALL_SCOPES, type Scope } from '../../storage/types.js';
import { resolve } from 'node:path';
import { exportWorkspace, restoreWorkspace, TransferError } from '../../core/commands/workspace-transfer.js';
import { EmbedderMismatchError } from '../../core/embedder-guard.js';
import { BackupError, backupDatabase, restoreDatabase } from '../../storage/sqlite/backup.js';

const usage = `Usage:
  npm run --silent admin -- keys create --workspace <slug> --plan <hobby|developer|team|scale> [--scopes a,b] [--agent <id>]
  npm run --silent admin -- keys revoke <key_id>
  npm run --silent admin -- keys list
  npm run --silent admin -- cache build      (builds the GloVe binary cache ahead of the first start)
  npm run --silent admin -- reembed          (re-embeds every memory with the configured embedder; resumable)
  npm run --silent admin -- workspace export --workspace <slug> --to <file[.gz]>   (portable, checksummed; either mode)
  npm run --silent admin -- workspace restore --from <file>   (into an empty workspace; keys come back revoked)
  npm run --silent admin -- backup --to <file>                (embedded: online copy of the database while it runs)
  npm run --silent admin -- restore --from <file> [--replace] (embedded: service stopped; --replace keeps the old one aside)`;

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
  if (group === 'workspace') return workspaceTransfer(config, action, rest);
  if (group === 'backup' || group === 'restore') return databaseBackup(config, group, [action, ...rest].filter((a) => a !== undefined));
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

/** Parses `--name value` options, all required unless listed as flags. */
function options(args: string[], names: string[], flags: string[] = []): Record<string, string | boolean | undefined> {
  try {
    const { values: parsed, positionals } = parseArgs({
      args,
      options: Object.fromEntries([...names.map((n) => [n, { type: 'string' as const }]), ...flags.map((f) => [f, { type: 'boolean' as const }])]),
      allowPositionals: true,
    });
    const values = parsed as Record<string, string | boolean | undefined>;
    if (positionals.length) throw new Error(`unexpected ${positionals[0]}`);
    for (const n of names) if (typeof values[n] !== 'string' || !values[n]) throw new Error(`--${n} is required`);
    return values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n${usage}`);
  }
}

/** `workspace export` / `workspace restore`: a portable file of one workspace, between any two modes. */
async function workspaceTransfer(config: Config, action: string | undefined, args: string[]) {
  if (action !== 'export' && action !== 'restore') throw new UsageError(usage);
  const o = action === 'export' ? options(args, ['workspace', 'to']) : options(args, ['from']);
  const { store, vectors, embedder } = await openStorage(config);
  try {
    if (action === 'export') return await exportWorkspace(store, vectors, embedder, o.workspace as string, resolve(o.to as string));
    return await restoreWorkspace(store, vectors, embedder, resolve(o.from as string), {
      onProgress: (p) => process.stderr.write(`${JSON.stringify({ restored: p.done })}\n`),
    });
  } catch (error) {
    if (error instanceof TransferError || error instanceof EmbedderMismatchError) throw new UsageError(error.message);
    throw error;
  } finally {
    await vectors.close();
    await store.close();
  }
}

/** `backup` / `restore`: the embedded database as a whole. */
async function databaseBackup(config: Config, command: 'backup' | 'restore', args: string[]) {
  if (config.MONGODB_URL) {
    throw new UsageError(`${command} copies the embedded database; with MONGODB_URL set, back up MongoDB and Elasticsearch with their own tools or move workspaces with \`workspace export\` (docs/backup-and-migration.md)`);
  }
  try {
    if (command === 'backup') return await backupDatabase(config.DATA_DIR, resolve(options(args, ['to']).to as string));
    const o = options(args, ['from'], ['replace']);
    return restoreDatabase(resolve(o.from as string), config.DATA_DIR, { replace: o.replace === true });
  } catch (error) {
    if (error instanceof BackupError) throw new UsageError(error.message);
    throw error;
  }
}

/** Progress goes to stderr, one JSON line per page; the result to stdout. */
async function reembed(config: Config) {
  const { store, vectors, embedder } = await openStorage(config, { reembedding: true });
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
