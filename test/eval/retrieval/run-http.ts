/**
 * Prints recall@1, recall@5 and MRR of search and of context sources, measured
 * end to end over HTTP against a fresh embedded server:
 *   npx tsx test/eval/retrieval/run-http.ts
 */
import { startTestServer } from '../../support/server.js';
import { evaluateOverHttp } from './evaluate-http.js';

const server = await startTestServer();
try {
  console.log(JSON.stringify(await evaluateOverHttp(server.api()), null, 2));
} finally {
  await server.close();
}
