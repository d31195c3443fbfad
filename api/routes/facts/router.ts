import Router from '@koa/router';
import { correctFact, forgetFact, writeFact } from '../../../core/commands/facts.js';
import { readAgent, requireScope } from '../../../core/principal.js';
import type { Services } from '../../../core/services.js';
import { bodyOf, type AppState } from '../../middleware.js';
import { presentFact, presentWriteFact } from '../../presenters.js';
import { validate } from '../../validation.js';
import { correctFactSchema, factIdSchema, factsQuery, forgetFactSchema, writeFactSchema } from './schema.js';

export function factRoutes(svc: Services): Router<AppState> {
  const router = new Router<AppState>();

  router.get('/v1/facts', async (ctx) => {
    const principal = ctx.state.principal;
    requireScope(principal, 'memories:read');
    const q = validate(factsQuery, ctx.query);
    const rules = svc.pipeline.rules;
    const predicate = q.predicate === undefined ? undefined : svc.pipeline.rules.canonicalPredicate(q.predicate).predicate;
    const page = await svc.store.facts.query(
      {
        workspaceId: principal.workspace.id,
        userId: q.user_id,
        agentId: readAgent(principal, q.agent_id),
        runId: q.run_id,
        subjectKey: q.subject === undefined ? undefined : rules.subjectKey(q.subject),
        entity: q.entity === undefined ? undefined : { subjectKey: rules.subjectKey(q.entity), objectKey: rules.normalizeObject(q.entity) },
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
    const id = validate(factIdSchema, ctx.params.id);
    ctx.body = await forgetFact(svc, ctx.state.principal, id, validate(forgetFactSchema, bodyOf(ctx)));
  });

  router.patch('/v1/facts/:id', async (ctx) => {
    requireScope(ctx.state.principal, 'memories:write');
    const id = validate(factIdSchema, ctx.params.id);
    const { fact, invalidated } = await correctFact(svc, ctx.state.principal, id, validate(correctFactSchema, bodyOf(ctx)));
    ctx.body = presentWriteFact(fact, invalidated);
  });

  return router;
}
