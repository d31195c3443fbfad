import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIStub, type ChatRequest, type OpenAIStub } from '../../test/support/openai-stub.js';
import type { CandidateFact, IncomingFact } from '../types.js';
import { LlmOutputError } from '../extraction/openai-client.js';
import { createContradictionJudge } from './index.js';
import { LlmContradictionJudge } from './llm-judge.js';

const day = (d: string) => new Date(`${d}T00:00:00Z`);
const berlin: CandidateFact = { id: 'f1', subject: 'user', predicate: 'lives_in', object: 'Berlin', validFrom: day('2024-01-01'), seq: 1 };
const munich: IncomingFact = { subject: 'user', predicate: 'lives_in', object: 'Munich', negated: false, validFrom: day('2024-06-01'), seq: 2 };
const reply = (over: Record<string, unknown>) => JSON.stringify({ decision: 'insert', factId: null, invalidate: [], closedAt: null, reason: 'test', ...over });

let stub: OpenAIStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function judgeReplying(answer: (req: ChatRequest) => string) {
  stub = await startOpenAIStub({ chat: answer });
  return createContradictionJudge({ JUDGE: 'openai', OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'test', JUDGE_MODEL: 'judge-model' });
}

describe('LLM contradiction judge', () => {
  it('parses a valid decision and sends incoming and live facts', async () => {
    const judge = await judgeReplying(() => reply({ decision: 'insert', invalidate: ['f1'] }));
    expect(judge).toBeInstanceOf(LlmContradictionJudge);
    await expect(judge.decide(munich, [berlin])).resolves.toEqual({ kind: 'insert', invalidate: ['f1'] });
    const body = stub!.requests[0].body;
    expect(body.model).toBe('judge-model');
    expect(body.response_format.json_schema.schema.properties.decision.enum).toEqual(['confirm', 'insert', 'insert_closed', 'retract', 'reschedule']);
    const payload = JSON.parse(body.messages[1].content);
    expect(payload.incoming).toMatchObject({ object: 'Munich', singleValued: true });
    expect(payload.live).toEqual([{ id: 'f1', subject: 'user', predicate: 'lives_in', object: 'Berlin', validFrom: '2024-01-01T00:00:00.000Z', seq: 1, invalidAt: null }]);
  });

  it('maps confirm, retract and insert_closed', async () => {
    let next = reply({ decision: 'confirm', factId: 'f1' });
    const judge = await judgeReplying(() => next);
    await expect(judge.decide({ ...munich, object: 'Berlin' }, [berlin])).resolves.toEqual({ kind: 'confirm', factId: 'f1' });
    next = reply({ decision: 'retract', invalidate: ['f1'] });
    await expect(judge.decide({ ...munich, object: 'Berlin', negated: true }, [berlin])).resolves.toEqual({ kind: 'retract', invalidate: ['f1'] });
    next = reply({ decision: 'insert_closed', closedAt: '2024-01-01T00:00:00Z' });
    await expect(judge.decide({ ...munich, validFrom: day('2019-01-01') }, [berlin])).resolves.toEqual({ kind: 'insert_closed', closedAt: day('2024-01-01') });
  });

  it('decides locally when there is nothing to judge', async () => {
    const judge = await judgeReplying(() => reply({}));
    await expect(judge.decide(munich, [])).resolves.toEqual({ kind: 'insert', invalidate: [] });
    await expect(judge.decide({ ...munich, negated: true }, [])).resolves.toEqual({ kind: 'retract', invalidate: [] });
    await expect(judge.decide({ ...munich, tense: 'past', validTo: day('2020-01-01') }, [])).resolves.toEqual({ kind: 'insert_closed', closedAt: day('2020-01-01') });
    expect(stub!.requests).toHaveLength(0);
  });

  it('rejects invalid JSON, unknown ids and incomplete decisions', async () => {
    let next = 'not json';
    const judge = await judgeReplying(() => next);
    await expect(judge.decide(munich, [berlin])).rejects.toThrow(LlmOutputError);
    next = reply({ decision: 'insert', invalidate: ['f999'] });
    await expect(judge.decide(munich, [berlin])).rejects.toThrow(/unknown fact ids: f999/);
    next = reply({ decision: 'confirm', factId: null });
    await expect(judge.decide(munich, [berlin])).rejects.toThrow(/confirm without factId/);
    next = reply({ decision: 'insert_closed', closedAt: 'soon' });
    await expect(judge.decide(munich, [berlin])).rejects.toThrow(/insert_closed without a valid closedAt/);
    next = JSON.stringify({ decision: 'replace' });
    await expect(judge.decide(munich, [berlin])).rejects.toThrow(/decision schema/);
  });
});
