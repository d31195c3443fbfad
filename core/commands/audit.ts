import { newId } from '../ids.js';
import type { Principal } from '../principal.js';
import type { Services } from '../services.js';

export async function writeAudit(
  svc: Services,
  principal: Principal,
  entry: { action: string; result?: string; userId?: string | null; targetId?: string | null; meta?: Record<string, unknown> },
): Promise<string> {
  const id = newId('aud');
  await svc.store.audit.append({
    id,
    workspaceId: principal.workspace.id,
    ts: new Date().toISOString(),
    actor: principal.keyId,
    action: entry.action,
    result: entry.result ?? 'ok',
    userId: entry.userId ?? null,
    targetId: entry.targetId ?? null,
    meta: entry.meta ?? {},
  });
  return id;
}
