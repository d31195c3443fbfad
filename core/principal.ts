import type { ApiKeyRecord, Scope, WorkspaceRecord } from '../storage/types.js';
import { forbidden } from './errors.js';
import { PLANS, type PlanLimits } from './plans.js';

/** Who is calling: the key, its workspace and plan. Every command takes one. */
export interface Principal {
  keyId: string;
  workspace: WorkspaceRecord;
  scopes: Scope[];
  /** The key's default agent namespace; a key with one is confined to it. */
  agentId: string | null;
  limits: PlanLimits;
}

export function principalOf(key: ApiKeyRecord, workspace: WorkspaceRecord): Principal {
  return { keyId: key.id, workspace, scopes: key.scopes, agentId: key.agentId, limits: PLANS[workspace.plan] };
}

export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw forbidden(`This key lacks the ${scope} scope`);
}

/** The agent namespace a write lands in: the requested one, else the key's default (null = default namespace). */
export function writeAgent(principal: Principal, requested: string | undefined): string | null {
  if (principal.agentId !== null && requested !== undefined && requested !== principal.agentId) {
    throw forbidden(`This key is confined to agent_id ${principal.agentId}`);
  }
  return requested ?? principal.agentId;
}

/** The agent namespace a read is narrowed to; undefined means every namespace the key can see. */
export function readAgent(principal: Principal, requested: string | undefined): string | undefined {
  if (principal.agentId !== null) {
    if (requested !== undefined && requested !== principal.agentId) throw forbidden(`This key is confined to agent_id ${principal.agentId}`);
    return principal.agentId;
  }
  return requested;
}
