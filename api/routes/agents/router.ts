import Router from '@koa/router';
import { z } from 'zod';
import { purgeAgent } from '../../../core/commands/erasure.js';
import { requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import type { AppState } from '../../middleware.js';
import { pathParam, queryInt, validate } from '../../validation.js';

export const listAgentsQuery = z.object({ limit: queryInt(1, 200, 50), offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0) });

export function agentRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/v1/agents', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(listAgentsQuery, ctx.query);
    const ws = principal.workspace.id;
    const page = await svc.store.agents.list(ws, { limit: q.limit, offset: q.offset });
    const visible = principal.agentId === null ? page.items : page.items.filter((a) => a.agentId === principal.agentId);
    const ids = visible.map((a) => a.agentId);
    const memories = new Map((await svc.store.memories.summarizeByAgent(ws, ids)).map((s) => [s.key, s]));
    const facts = await svc.store.facts.countLiveByAgent(ws, ids);
    const used = await svc.store.agents.count(ws);
    ctx.body = {
      agents: visible.map((a) => ({
        agent_id: a.agentId,
        memories: memories.get(a.agentId)?.memories ?? 0,
        facts: facts.get(a.agentId) ?? 0,
        last_active: memories.get(a.agentId)?.lastActive ?? a.createdAt,
      })),
      total: principal.agentId === null ? page.total : visible.length,
      cap: principal.limits.agents,
      used,
    };
  });

  router.delete('/v1/agents/:id', async (ctx) => {
    ctx.body = await purgeAgent(svc, ctx.state.principal, pathParam('id', ctx.params.id));
  });

  return router;
}
