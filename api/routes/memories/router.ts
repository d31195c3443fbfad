import Router from '@koa/router';
import { addMemory, forgetMemory, updateMemory, visibleMemory } from '../../../core/commands/memories.js';
import { ApiError } from '../../../core/errors.js';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import type { MemoryRecord } from '../../../storage/types.js';
import { bodyOf, type AppState } from '../../middleware.js';
import { presentHistoryEvent, presentMemory } from '../../presenters.js';
import { pathParam, validate } from '../../validation.js';
import { listMemoriesQuery, memoryInputSchema, updateMemorySchema } from './schema.js';

const idParam = (raw: string | undefined) => pathParam('id', raw);

/** `/v1/memories/search` is a POST-only path that the `:id` routes would otherwise capture. */
const notSearch = (raw: string) => {
  if (raw === 'search') throw new ApiError(405, 'method_not_allowed', 'Method not allowed for this path');
  return raw;
};

export function memoryRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();
  const withFacts = async (m: MemoryRecord) =>
    presentMemory(m, await svc.store.facts.listForMemory(m.workspaceId, { memoryId: m.id, version: m.version }));

  router.post('/v1/memories', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const input = validate(memoryInputSchema, bodyOf(ctx));
    ctx.body = presentMemory(await addMemory(svc, ctx.state.principal, input), []);
  });

  router.get('/v1/memories', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(listMemoriesQuery, ctx.query);
    const page = await svc.store.memories.list(
      { workspaceId: principal.workspace.id, userId: q.user_id, agentId: readAgent(principal, q.agent_id), runId: q.run_id },
      { limit: q.limit, offset: q.offset },
    );
    ctx.body = { memories: await Promise.all(page.items.map(withFacts)), total: page.total };
  });

  router.get('/v1/memories/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:read');
    ctx.body = await withFacts(await visibleMemory(svc, ctx.state.principal, idParam(notSearch(ctx.params.id))));
  });

  router.patch('/v1/memories/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const id = idParam(notSearch(ctx.params.id));
    const input = validate(updateMemorySchema, bodyOf(ctx));
    ctx.body = await withFacts(await updateMemory(svc, ctx.state.principal, id, input));
  });

  router.delete('/v1/memories/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    ctx.body = await forgetMemory(svc, ctx.state.principal, idParam(notSearch(ctx.params.id)));
  });

  router.get('/v1/memories/:id/history', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:read');
    const id = idParam(ctx.params.id);
    const memory = await visibleMemory(svc, ctx.state.principal, id).catch(async (error) => {
      // History outlives deletion: a forgotten memory's lifecycle stays readable.
      const stub = await svc.store.memories.get(ctx.state.principal.workspace.id, id);
      if (stub?.deletedAt && (ctx.state.principal.agentId === null || stub.agentId === ctx.state.principal.agentId)) return stub;
      throw error;
    });
    const events = await svc.store.history.list(memory.workspaceId, memory.id);
    ctx.body = { id: memory.id, events: events.map(presentHistoryEvent) };
  });

  return router;
}
