/**
 * The cost of a query's word statistics (document counts, for idf weights and for leaving out common words) in a
 * large embedded keyword index: the first count of each word, then the same query again (a count kept while the index
 * changes by at most 1%). Reads a data folder that `bench/retrieval.ts --keep DIR 1000000` left (DIR/1000000):
 *   npx tsx bench/term-statistics.ts /tmp/bench/1000000
 * Prints one JSON object on stdout.
 */
import { cpus } from 'node:os';
import { EmbeddedVectorIndex } from '../storage/vector/embedded.js';
import { openDatabase } from '../storage/sqlite/store.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: bench/term-statistics.ts <data folder of bench/retrieval.ts --keep>');
  process.exit(2);
}
// "note" is in every memory of the bench's workspace; places in a tenth of them; the rest in a few thousand.
const QUERIES = ['What is in the note?', 'note from Lisbon', 'Which city is home these days?', 'What kind of dog do they have?'];

const db = openDatabase(dir);
const index = await EmbeddedVectorIndex.open(db);
try {
  const ms = async (query: string) => {
    const started = performance.now();
    const stats = await index.termStatistics('', query);
    return { ms: Math.round((performance.now() - started) * 100) / 100, documents: stats.documents, frequencies: Object.fromEntries(stats.frequencies) };
  };
  const results = [];
  for (const query of QUERIES) {
    const first = await ms(query);
    const again = await ms(query);
    results.push({ query, firstMs: first.ms, againMs: again.ms, documents: first.documents, frequencies: first.frequencies });
  }
  console.log(JSON.stringify({ machine: { cpu: cpus()[0]?.model, cores: cpus().length, node: process.version }, results }));
} finally {
  await index.close();
  db.close();
}
