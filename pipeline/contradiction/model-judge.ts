import type { CandidateFact, ContradictionDecision, ContradictionJudge, HeldFact, IncomingFact } from '../types.js';
import { PairChangeClassifier, type ChangeClassifier } from './change-classifier.js';
import { decideByRules } from './rule-judge.js';

/**
 * JUDGE=model: the rules decide what each extracted fact does to its candidates (rule-judge.ts); the shipped
 * change classifier reads the whole message and says which other held facts it ends ("it's all monzo now").
 * The classifier loads on first use, so a process that never runs the contradiction stages never pays for it.
 */
export class ModelContradictionJudge implements ContradictionJudge {
  private classifier: Promise<ChangeClassifier> | null;

  constructor(classifier?: ChangeClassifier) {
    this.classifier = classifier ? Promise.resolve(classifier) : null;
  }

  async decide(incoming: IncomingFact, candidates: CandidateFact[]): Promise<ContradictionDecision> {
    return decideByRules(incoming, candidates);
  }

  async endings(message: string, held: readonly HeldFact[]): Promise<(number | null)[]> {
    const classifier = await (this.classifier ??= PairChangeClassifier.load());
    const scores = await classifier.classify(message, held);
    return scores.map((s) => (s.ended >= classifier.endedThreshold ? s.ended : null));
  }
}
