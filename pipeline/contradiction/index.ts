import type { Config } from '../../core/config.js';
import type { ContradictionJudge } from '../types.js';
import { createOpenAIClient } from '../extraction/openai-client.js';
import { LlmContradictionJudge } from './llm-judge.js';
import { ModelContradictionJudge } from './model-judge.js';
import { RuleContradictionJudge } from './rule-judge.js';

export type JudgeConfig = Pick<Config, 'JUDGE' | 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'JUDGE_MODEL'>;

/**
 * JUDGE=rules: deterministic rules. JUDGE=model: the rules, and the shipped change classifier for what a message
 * ends without saying it as a fact. JUDGE=openai: chat model, validated.
 */
export function createContradictionJudge(config: JudgeConfig): ContradictionJudge {
  if (config.JUDGE === 'model') return new ModelContradictionJudge();
  if (config.JUDGE === 'openai') return new LlmContradictionJudge({ client: createOpenAIClient(config), model: config.JUDGE_MODEL });
  return new RuleContradictionJudge();
}

export { RuleContradictionJudge, decideByRules, compareSupersedeOrder } from './rule-judge.js';
export { LlmContradictionJudge } from './llm-judge.js';
export { ModelContradictionJudge } from './model-judge.js';
