/**
 * Prints the retrieval metrics of the configured embedder as JSON:
 *   npx tsx test/eval/retrieval/run.ts [--queries]
 * Uses the same environment variables as the service (EMBEDDER, DATA_DIR, OPENAI_*),
 * so it also evaluates an OpenAI-compatible model. --queries adds per-query ranks.
 */
import { loadConfig } from '../../../core/config.js';
import { createEmbedder } from '../../../pipeline/embedding/index.js';
import { evaluateEmbedder } from './evaluate-embedder.js';

const config = loadConfig();
const embedder = await createEmbedder(config);
const { outcomes, ...metrics } = await evaluateEmbedder(embedder);
const perQuery = outcomes.map((o) => ({ query: o.query, user_id: o.user_id, kind: o.kind, firstRelevantRank: o.firstRelevantRank }));
console.log(JSON.stringify(process.argv.includes('--queries') ? { ...metrics, perQuery } : metrics, null, 2));
