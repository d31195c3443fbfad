import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIStub, type OpenAIStub } from '../../test/support/openai-stub.js';
import { createEmbedder } from './index.js';
import { createOpenAIEmbedder, EmbeddingResponseError } from './openai-embedder.js';
import { cosine } from './vector-math.js';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 20 };
let stub: OpenAIStub | undefined;

afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

/** Stub vector that encodes the number in the text ("item 7" -> 7 on axis 0), unnormalised. */
const numberedVector = (input: string, dimensions: number) => {
  const vector = new Array(dimensions).fill(0);
  vector[0] = Number(/\d+/.exec(input)?.[0] ?? -1);
  vector[1] = 1;
  return vector;
};

const embeddingRequests = () => stub!.requests.filter((r) => r.path.endsWith('/embeddings'));

describe('OpenAIEmbedder', () => {
  it('batches inputs, preserves order and normalises vectors', async () => {
    stub = await startOpenAIStub({ embed: numberedVector });
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'test-embed', dimensions: 8, retry: FAST_RETRY });
    const texts = Array.from({ length: 300 }, (_, i) => `item ${i + 1}`);

    const vectors = await embedder.embed(texts);

    const requests = embeddingRequests();
    expect(requests.map((r) => r.body.input.length)).toEqual([128, 128, 44]);
    expect(requests.flatMap((r) => r.body.input)).toEqual(texts);
    expect(requests[0].body).toMatchObject({ model: 'test-embed', dimensions: 8, encoding_format: 'float' });
    vectors.forEach((vector, i) => {
      const n = i + 1;
      expect(vector[0]).toBeCloseTo(n / Math.hypot(n, 1), 5);
      expect(cosine(vector, vector)).toBeCloseTo(1, 5);
    });
    expect(embedder.dimensions).toBe(8);
    expect(embedder.id).toBe('openai:test-embed');
  });

  it('probes the dimensions once when none are configured, without sending the parameter', async () => {
    stub = await startOpenAIStub({ dimensions: 48 });
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'nomic-embed-text', retry: FAST_RETRY });
    expect(embedder.dimensions).toBe(48);
    expect(embeddingRequests()).toHaveLength(1);

    const [vector] = await embedder.embed(['hello']);
    expect(vector.length).toBe(48);
    expect(embeddingRequests().every((r) => !('dimensions' in r.body))).toBe(true);
  });

  it('fails clearly when the server returns vectors of another size', async () => {
    stub = await startOpenAIStub({ embed: (input) => new Array(16).fill(1) });
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'test-embed', dimensions: 32, retry: FAST_RETRY });
    const failure = embedder.embed(['a', 'b']);
    await expect(failure).rejects.toThrow(EmbeddingResponseError);
    await expect(failure).rejects.toThrow(/16-dimensional vector, expected 32/);
  });

  it('retries after a server error and a rate limit', async () => {
    stub = await startOpenAIStub();
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'test-embed', dimensions: 8, retry: FAST_RETRY });
    stub.failNext(1, 500);
    expect(await embedder.embed(['one'])).toHaveLength(1);
    expect(embeddingRequests()).toHaveLength(2);

    stub.failNext(2, 429);
    expect(await embedder.embed(['two'])).toHaveLength(1);
    expect(embeddingRequests()).toHaveLength(5);
  });

  it('gives up after maxRetries and does not retry client errors', async () => {
    stub = await startOpenAIStub();
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'test-embed', dimensions: 8, retry: { ...FAST_RETRY, maxRetries: 2 } });
    stub.failNext(5, 503);
    await expect(embedder.embed(['x'])).rejects.toThrow();
    expect(embeddingRequests()).toHaveLength(3);

    stub.failNext(1, 400); // replaces the two 503s still pending
    await expect(embedder.embed(['y'])).rejects.toThrow(/400/);
    expect(embeddingRequests()).toHaveLength(4);
  });

  it('never sends blank texts and returns zero vectors for them', async () => {
    stub = await startOpenAIStub({ embed: numberedVector });
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'test-embed', dimensions: 4, retry: FAST_RETRY });
    const vectors = await embedder.embed(['', 'item 3', '   ', 'item 5']);
    expect(embeddingRequests()[0].body.input).toEqual(['item 3', 'item 5']);
    expect(Array.from(vectors[0])).toEqual([0, 0, 0, 0]);
    expect(Array.from(vectors[2])).toEqual([0, 0, 0, 0]);
    expect(vectors[1][0]).toBeCloseTo(3 / Math.hypot(3, 1), 5);
    expect(cosine(vectors[0], vectors[1])).toBe(0);
  });

  it('needs an API key only for the OpenAI API itself', async () => {
    await expect(createOpenAIEmbedder({ model: 'text-embedding-3-small', dimensions: 8 })).rejects.toThrow(/OPENAI_API_KEY/);
    stub = await startOpenAIStub();
    const embedder = await createOpenAIEmbedder({ baseURL: stub.url, model: 'local', dimensions: 8 });
    expect(await embedder.embed(['works without a key'])).toHaveLength(1);
  });
});

describe('createEmbedder', () => {
  it('builds the OpenAI-compatible embedder from configuration', async () => {
    stub = await startOpenAIStub({ dimensions: 24 });
    const embedder = await createEmbedder({
      EMBEDDER: 'openai',
      OPENAI_BASE_URL: stub.url,
      OPENAI_API_KEY: 'sk-test',
      EMBEDDING_MODEL: 'text-embedding-3-small',
      EMBEDDING_DIMENSIONS: undefined,
      DATA_DIR: '/nonexistent',
    });
    expect(embedder).toMatchObject({ id: 'openai:text-embedding-3-small', dimensions: 24 });
    const [vector] = await embedder.embed(['configured']);
    expect(cosine(vector, vector)).toBeCloseTo(1, 5);
  });
});
