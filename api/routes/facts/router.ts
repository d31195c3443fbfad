import Router from '@koa/router';
import { correctFact, forgetFact, writeFact } from '../../../core/commands/facts.js';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import { bodyOf, type AppState } from '../../middleware.js';
import { presentFact, presentWriteFact } from '../../presenters.js';
import { pathParam, validate } from '../../validation.js';
import { correctFactSchema, factsQuery, forgetFactSchema, writeFactSchema } from './schema.js';

/** Every name the entity graph knows for `name` ("sister" → Anna), as subject and object keys. */
async function entityKeys(svc: Services, scope: { workspaceId: string; agentId?: string; userId?: string }, name: string) {
  const names = new Set([name]);
  for (const entity of await svc.store.entities.resolve(scope, name.trim().toLowerCase())) {
    names.add(entity.name);
    names.add(entity.canonical);
  }
  const rules = svc.pipeline.rules;
  return { subjectKeys: [...names].map(rules.subjectKey), objectKeys: [...names].map(rules.normalizeObject) };
}

export function factRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/v1/facts', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(factsQuery, ctx.query);
    const rules = svc.pipeline.rules;
    const predicate = q.predicate === undefined ? undefined : rules.canonicalPredicate(q.predicate).predicate;
    const agentId = readAgent(principal, q.agent_id);
    const entity = q.entity === undefined ? undefined : await entityKeys(svc, { workspaceId: principal.workspace.id, agentId, userId: q.user_id }, q.entity);
    const page = await svc.store.facts.query(
      {
        workspaceId: principal.workspace.id,
        userId: q.user_id,
        agentId,
        runId: q.run_id,
        subjectKey: q.subject === undefined ? undefined : rules.subjectKey(q.subject),
        entity,
        predicate,
        family: q.predicate_family,
        asOf: q.as_of,
        includeInvalidated: q.include_invalidated,
      },
      { limit: q.limit, offset: q.offset },
    );
    ctx.body = { facts: page.items.map(presentFact), total: page.total };
  });

  router.post('/v1/facts', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const { fact, invalidated } = await writeFact(svc, ctx.state.principal, validate(writeFactSchema, bodyOf(ctx)));
    ctx.body = presentWriteFact(fact, invalidated);
  });

  router.post('/v1/facts/:id/forget', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const id = pathParam('id', ctx.params.id);
    ctx.body = await forgetFact(svc, ctx.state.principal, id, validate(forgetFactSchema, bodyOf(ctx)));
  });

  router.patch('/v1/facts/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const id = pathParam('id', ctx.params.id);
    const { fact, invalidated } = await correctFact(svc, ctx.state.principal, id, validate(correctFactSchema, bodyOf(ctx)));
    ctx.body = presentWriteFact(fact, invalidated);
  });

  return router;
}
