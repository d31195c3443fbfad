import { agentCapExceeded } from '../errors.js';
import type { Principal } from '../principal.js';
import type { Services } from '../services.js';

/** Registers a new agent namespace on first write; refuses past the plan's cap. */
export async function ensureAgent(svc: Services, principal: Principal, agentId: string | null): Promise<void> {
  if (agentId === null) return;
  const outcome = await svc.store.agents.register(principal.workspace.id, agentId, principal.limits.agents, new Date().toISOString());
  if (outcome === 'cap_exceeded') throw agentCapExceeded(principal.limits.agents);
}

/** A read naming an agent the workspace does not have yet, while at the cap, is refused like a write. */
export async function checkAgentReadable(svc: Services, principal: Principal, agentId: string | null | undefined): Promise<void> {
  if (agentId === null || agentId === undefined) return;
  if (await svc.store.agents.exists(principal.workspace.id, agentId)) return;
  if ((await svc.store.agents.count(principal.workspace.id)) >= principal.limits.agents) throw agentCapExceeded(principal.limits.agents);
}
