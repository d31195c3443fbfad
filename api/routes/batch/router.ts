import Router from '@koa/router';
import { z } from 'zod';
import { submitBatch } from '../../../core/commands/batch.js';
import { notFound } from '../../../core/errors.js';
import { requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import { bodyOf, type AppState } from '../../middleware.js';
import { presentBatch } from '../../presenters.js';
import { pathIdSchema, pathParam, validate } from '../../validation.js';
import { memoryInputSchema } from '../memories/schema.js';

export const MAX_BATCH_ITEMS = 500;

export const batchSchema = z.strictObject({
  memories: z.array(memoryInputSchema).min(1).max(MAX_BATCH_ITEMS),
});

/** Path `id` of GET /v1/batch/{id}: any id that names no batch of the workspace is a 404. */
export const batchIdSchema = pathIdSchema;

export function batchRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();

  router.post('/v1/batch', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const { memories } = validate(batchSchema, bodyOf(ctx));
    ctx.status = 202;
    ctx.body = presentBatch(await submitBatch(svc, ctx.state.principal, memories));
  });

  router.get('/v1/batch/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:read');
    const batch = await svc.store.batches.get(ctx.state.principal.workspace.id, pathParam('id', ctx.params.id));
    if (!batch) throw notFound('Batch not found');
    const agentId = ctx.state.principal.agentId;
    if (agentId !== null) {
      // A key confined to an agent namespace sees only batches written entirely into it.
      const memories = await svc.store.memories.getMany(batch.workspaceId, batch.memoryIds);
      if (memories.some((m) => m.agentId !== agentId)) throw notFound('Batch not found');
    }
    ctx.body = presentBatch(batch);
  });

  return router;
}
