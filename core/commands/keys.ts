import { hashApiKey, newApiKeySecret, newId } from '../ids.js';
import { ALL_SCOPES, type Plan, type Scope, type Store, type WorkspaceRecord } from '../../storage/types.js';

export interface CreatedKey {
  key: string;
  key_id: string;
  workspace: string;
  plan: Plan;
  scopes: Scope[];
  agent_id: string | null;
}

/** Creates the workspace on first use (or moves it to `plan`) and issues a key; the secret is returned once. */
export async function createKey(
  store: Store,
  input: { workspace: string; plan: Plan; scopes?: Scope[]; agentId?: string | null },
): Promise<CreatedKey> {
  const now = new Date().toISOString();
  let workspace = await store.workspaces.getBySlug(input.workspace);
  if (!workspace) {
    const fresh: WorkspaceRecord = { id: newId('ws'), slug: input.workspace, plan: input.plan, createdAt: now };
    try {
      await store.workspaces.insert(fresh);
      workspace = fresh;
    } catch (error) {
      // Another process (a second API replica, the admin CLI) created the same slug at the same moment.
      workspace = await store.workspaces.getBySlug(input.workspace);
      if (!workspace) throw error;
    }
  }
  if (workspace.plan !== input.plan) {
    await store.workspaces.setPlan(workspace.id, input.plan);
    workspace = { ...workspace, plan: input.plan };
  }
  const secret = newApiKeySecret();
  const scopes = input.scopes?.length ? input.scopes : ALL_SCOPES;
  const id = newId('key');
  await store.keys.insert({ id, workspaceId: workspace.id, hash: hashApiKey(secret), scopes, agentId: input.agentId ?? null, createdAt: now, revokedAt: null });
  return { key: secret, key_id: id, workspace: workspace.slug, plan: workspace.plan, scopes, agent_id: input.agentId ?? null };
}

/** First start on an empty store: one workspace and key so `npm start` is usable at once. */
export async function bootstrapDefaultKey(store: Store): Promise<CreatedKey | null> {
  if ((await store.keys.count()) > 0) return null;
  return createKey(store, { workspace: 'default', plan: 'developer' });
}
