import { beforeAll, describe, expect, it } from 'vitest';
import { createGloveEmbedder, GLOVE_EMBEDDER_ID, GloveEmbedder } from './glove-embedder.js';
import { ensureGloveCache, loadGloveTable } from './glove-cache.js';
import { createEmbedder } from './index.js';
import { DEFAULT_RECIPE } from './sentence-encoder.js';
import { SHARED_TEST_CACHE_DIR } from './test-helpers.js';
import { cosine } from './vector-math.js';

let embedder: GloveEmbedder;

beforeAll(async () => {
  embedder = await createGloveEmbedder('unused-data-dir', { cacheDir: SHARED_TEST_CACHE_DIR });
});

const norm = (v: Float32Array) => Math.sqrt(cosine(v, v));
/** A query against a stored text, as search compares them. */
const similarity = (query: string, stored: string) => cosine(embedder.embedQuery(query), embedder.embedOne(stored));

describe('GloveEmbedder', () => {
  it('has a stable id and a fixed dimension count', async () => {
    expect(embedder.id).toBe(GLOVE_EMBEDDER_ID);
    expect(embedder.id).toBe('glove-sg100d+ngram+lex-v3');
    expect(embedder.dimensions).toBe(641);
    const [vector] = await embedder.embed(['anything at all']);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector.length).toBe(641);
    expect(embedder.embedQuery('anything at all').length).toBe(641);
  });

  it('is deterministic across calls and instances', async () => {
    const text = 'My sister Inês moved to Amsterdam in 2019.';
    const other = new GloveEmbedder(await loadGloveTable(await ensureGloveCache('unused', { cacheDir: SHARED_TEST_CACHE_DIR })));
    const [a] = await embedder.embed([text]);
    expect(Array.from(embedder.embedOne(text))).toEqual(Array.from(a));
    expect(Array.from(other.embedOne(text))).toEqual(Array.from(a));
  });

  it('returns unit vectors for all kinds of text, in input order', async () => {
    const texts = [
      'I adopted a beagle puppy named Max.',
      'Zsofia Kowalczyk-Nakamura, invoice #4471-B',
      '東京に住んでいます 🍣',
      'Ελληνικά κείμενα και café',
      'word '.repeat(3200),
      'x',
    ];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    vectors.forEach((v, i) => {
      expect(norm(v)).toBeCloseTo(1, 5);
      expect(Array.from(v)).toEqual(Array.from(embedder.embedOne(texts[i])));
      expect(v.every(Number.isFinite)).toBe(true);
    });
  });

  it('keeps order for batches larger than one event-loop slice', async () => {
    const texts = Array.from({ length: 600 }, (_, i) => `note number ${i} about the garden`);
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(600);
    for (const i of [0, 255, 256, 257, 599]) expect(Array.from(vectors[i])).toEqual(Array.from(embedder.embedOne(texts[i])));
  });

  it('ranks related meanings above unrelated ones', () => {
    const cases: [query: string, related: string, unrelated: string][] = [
      ['what kind of dog do they have', 'I adopted a beagle puppy named Max', 'I work as a nurse at the city hospital'],
      ['where does she work', 'I work as a nurse at the city hospital', 'I adopted a beagle puppy named Max'],
      ['is she allergic to any food', 'Peanuts make my throat swell up', 'My brother lives in Denver'],
      ['favourite sport', 'I play tennis every Sunday', 'My mortgage rate is 4 percent'],
      ['money problems', 'I am behind on my credit card payments', 'We went hiking in the Alps'],
    ];
    for (const [query, related, unrelated] of cases) {
      expect(similarity(query, related), `${query} -> ${related}`).toBeGreaterThan(similarity(query, unrelated) + 0.05);
    }
  });

  it('matches out-of-vocabulary names and numbers through character n-grams', () => {
    const memory = 'Call Zsofia about invoice 4471 before Friday';
    expect(similarity('invoice 4471', memory)).toBeGreaterThan(similarity('invoice 9182', memory) + 0.1);
    expect(similarity('Zsofia', memory)).toBeGreaterThan(similarity('Brunhilde', memory) + 0.1);
    expect(similarity('Kwabenya', 'My cousin Kwabenya is visiting')).toBeGreaterThan(0.2);
    // A typo still lands near the right word.
    expect(similarity('Kubernetes cluster', 'kubernetis')).toBeGreaterThan(similarity('Kubernetes cluster', 'tomato soup'));
  });

  it('carries shared rare words (keyword evidence), stemmed, beyond their meaning', () => {
    const memory = 'We finally adopted two guinea pigs from the shelter';
    // Same topic words beat a paraphrase-free sentence about pets in general.
    expect(similarity('guinea pig adoption', memory)).toBeGreaterThan(similarity('guinea pig adoption', 'We bought a hamster and a parrot at the pet shop') + 0.1);
    expect(cosine(embedder.embedQuery('adopting'), embedder.embedQuery('adopted'))).toBeGreaterThan(0.5);
  });

  it('weights query words by collection statistics in embedQuery', () => {
    const hiking = embedder.embedOne('Caroline: I went hiking in the mountains last weekend');
    const sunrise = embedder.embedOne('Melanie: I painted a sunrise over the lake');
    const query = "Is that Caroline's sunrise painting?";
    const plain = embedder.embedQuery(query);
    expect(Array.from(embedder.embedQuery(query, () => 1))).toEqual(Array.from(plain));
    // "caroline" (here inside "caroline's") is in half of the memories: weighted down, the rare words lead.
    const weighted = embedder.embedQuery(query, (stem) => (stem === 'carolin' ? 0.1 : 1));
    expect(cosine(weighted, sunrise) - cosine(weighted, hiking)).toBeGreaterThan(cosine(plain, sunrise) - cosine(plain, hiking));
    expect(cosine(weighted, sunrise)).toBeGreaterThan(cosine(weighted, hiking));
    expect(norm(weighted)).toBeCloseTo(1, 5);
  });

  it('prefers a long memory about the topic to a short line that only names it', async () => {
    const query = 'How did Joanna feel about the screenplay?';
    const short = 'Joanna: The screenplay!';
    const long = 'Joanna: When the screenplay was finally accepted by the festival I cried for an hour, I was so proud and relieved after two years of rewrites.';
    expect(similarity(query, long)).toBeGreaterThan(similarity(query, short) + 0.03);
    // Without the length prior cosine normalisation alone ranks the short line first.
    const table = await loadGloveTable(await ensureGloveCache('unused', { cacheDir: SHARED_TEST_CACHE_DIR }));
    const withoutPrior = new GloveEmbedder(table, { ...DEFAULT_RECIPE, lengthPivot: undefined });
    expect(cosine(withoutPrior.embedQuery(query), withoutPrior.embedOne(short))).toBeGreaterThan(cosine(withoutPrior.embedQuery(query), withoutPrior.embedOne(long)));
    // The prior is on the stored side only: a query's vector has nothing on its dimension.
    expect(embedder.embedQuery(short).at(-2)).toBe(0);
    expect(embedder.embedOne(short).at(-2)).toBeGreaterThan(0);
  });

  it("ranks what a person said above what was said to them", () => {
    const query = 'What does Jon want?';
    expect(similarity(query, 'Jon: I want to open my own dance studio.')).toBeGreaterThan(similarity(query, 'Gina: Jon, you should want a dance studio of your own.') + 0.1);
  });

  it('folds case, accents and typographic apostrophes', () => {
    const same = (a: string, b: string) => cosine(embedder.embedOne(a), embedder.embedOne(b));
    expect(same('Café MÜLLER', 'cafe muller')).toBeCloseTo(1, 5);
    expect(same('Max’s bowl', "max's bowl")).toBeCloseTo(1, 5);
  });

  it('gives featureless text a unit "empty" vector orthogonal to real text', async () => {
    const [empty, blank, punctuation, stopWords, real] = await embedder.embed(['', '   \n\t', '?!... ---', 'what is the', 'gardening']);
    for (const v of [empty, blank, punctuation, stopWords]) {
      expect(norm(v)).toBeCloseTo(1, 6);
      expect(cosine(v, empty)).toBeCloseTo(1, 6);
      expect(cosine(v, real)).toBe(0);
    }
    expect(Number.isNaN(cosine(empty, real))).toBe(false);
  });

  it('embeds a 16,000-character text quickly', () => {
    const long = 'Last summer we rented a cottage by the lake and swam every morning. '.repeat(240).slice(0, 16_000);
    const started = performance.now();
    const vector = embedder.embedOne(long);
    expect(performance.now() - started).toBeLessThan(200);
    expect(norm(vector)).toBeCloseTo(1, 5);
    expect(cosine(vector, embedder.embedOne('holiday at a lakeside cottage'))).toBeGreaterThan(0.3);
  });

  it('gives a custom recipe its own id', async () => {
    const table = await loadGloveTable(await ensureGloveCache('unused', { cacheDir: SHARED_TEST_CACHE_DIR }));
    const custom = new GloveEmbedder(table, { ...DEFAULT_RECIPE, ngramShare: 0.5 });
    expect(custom.id).toMatch(/^glove-sg100d\+ngram\+lex-v3-custom-[0-9a-f]{8}$/);
    expect(new GloveEmbedder(table, { ...DEFAULT_RECIPE }).id).toBe(GLOVE_EMBEDDER_ID);
    expect(custom.dimensions).toBe(embedder.dimensions);
  });

  it('is what the factory returns for EMBEDDER=glove', async () => {
    const fromConfig = await createEmbedder({
      EMBEDDER: 'glove',
      DATA_DIR: 'unused-data-dir',
      CACHE_DIR: SHARED_TEST_CACHE_DIR,
      OPENAI_BASE_URL: undefined,
      OPENAI_API_KEY: undefined,
      EMBEDDING_MODEL: 'ignored',
      EMBEDDING_DIMENSIONS: undefined,
    });
    expect(fromConfig).toBeInstanceOf(GloveEmbedder);
    const [vector] = await fromConfig.embed(['same text']);
    expect(Array.from(vector)).toEqual(Array.from(embedder.embedOne('same text')));
  });
});
