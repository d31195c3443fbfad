import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { Embedder } from '../types.js';
import { withRetry, type RetryDecision, type RetryPolicy } from './retry.js';

/**
 * Embedder for any OpenAI-compatible /v1/embeddings endpoint (OpenAI, Azure-style
 * proxies, Ollama, vLLM, LM Studio...).
 *
 * Dimensions: when `dimensions` is configured it is sent with every request (for
 * models that can shorten their output, e.g. text-embedding-3-*) and every returned
 * vector must have exactly that length. When it is not configured, `create` probes
 * the model once with a one-word request and uses the length it returns; nothing
 * extra is sent, so servers that reject the `dimensions` parameter keep working.
 *
 * Blank texts (empty or whitespace only) are never sent (the OpenAI API rejects
 * them): they get an all-zero vector, whose cosine with anything is 0 (no NaN).
 * Every other vector is L2-normalised here, whatever the server returns.
 */

export interface OpenAIEmbedderOptions {
  model: string;
  /** Includes the /v1 suffix, e.g. http://localhost:11434/v1. Default: the OpenAI API. */
  baseURL?: string;
  /** Optional for local servers; required for the OpenAI API itself. */
  apiKey?: string;
  dimensions?: number;
  /** Inputs per request (default 128). */
  batchSize?: number;
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
}

export class EmbeddingResponseError extends Error {}

const DEFAULT_BATCH_SIZE = 128;
const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, baseDelayMs: 500, maxDelayMs: 10_000 };
const PROBE_TEXT = 'dimension probe';
// Sent as the API key to local servers that ignore it; the SDK refuses to start without one.
const PLACEHOLDER_API_KEY = 'unused';

export class OpenAIEmbedder implements Embedder {
  readonly id: string;

  private constructor(
    private readonly client: OpenAI,
    private readonly model: string,
    readonly dimensions: number,
    private readonly requestDimensions: number | undefined,
    private readonly batchSize: number,
    private readonly retryPolicy: RetryPolicy,
  ) {
    this.id = `openai:${model}`;
  }

  static async create(options: OpenAIEmbedderOptions): Promise<OpenAIEmbedder> {
    if (!options.apiKey && !options.baseURL) {
      throw new Error('OPENAI_API_KEY is required for the OpenAI API (set OPENAI_BASE_URL to use a local server without a key)');
    }
    const client = new OpenAI({
      apiKey: options.apiKey || PLACEHOLDER_API_KEY,
      baseURL: options.baseURL,
      maxRetries: 0, // retries are ours, so their backoff is configurable
      timeout: options.timeoutMs ?? 60_000,
    });
    const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error(`batchSize must be a positive integer, got ${batchSize}`);
    const retryPolicy = { ...DEFAULT_RETRY, ...options.retry };

    let dimensions = options.dimensions;
    if (dimensions === undefined) {
      const probe = new OpenAIEmbedder(client, options.model, 0, undefined, 1, retryPolicy);
      const [vector] = await probe.request([PROBE_TEXT]);
      dimensions = vector.length;
      if (dimensions === 0) throw new EmbeddingResponseError(`model ${options.model} returned an empty embedding`);
    }
    return new OpenAIEmbedder(client, options.model, dimensions, options.dimensions, batchSize, retryPolicy);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const vectors: Float32Array[] = texts.map(() => new Float32Array(this.dimensions));
    const toSend = texts.map((text, index) => ({ text, index })).filter(({ text }) => text.trim() !== '');
    for (let start = 0; start < toSend.length; start += this.batchSize) {
      const batch = toSend.slice(start, start + this.batchSize);
      const embedded = await this.request(batch.map(({ text }) => text));
      embedded.forEach((vector, i) => {
        vectors[batch[i].index] = this.checkAndNormalize(vector);
      });
    }
    return vectors;
  }

  /** One API call (with retries); returns the raw vectors in input order. */
  private async request(inputs: string[]): Promise<number[][]> {
    const response = await withRetry(
      () =>
        this.client.embeddings.create({
          model: this.model,
          input: inputs,
          // Explicit, because the SDK otherwise asks for base64, which some compatible servers ignore.
          encoding_format: 'float',
          ...(this.requestDimensions !== undefined ? { dimensions: this.requestDimensions } : {}),
        }),
      this.retryPolicy,
      classifyOpenAIError,
    );
    if (!Array.isArray(response?.data) || response.data.length !== inputs.length) {
      throw new EmbeddingResponseError(`${this.model}: expected ${inputs.length} embeddings, got ${response?.data?.length ?? 'none'}`);
    }
    const ordered: number[][] = new Array(inputs.length);
    response.data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      if (index < 0 || index >= inputs.length || ordered[index]) {
        throw new EmbeddingResponseError(`${this.model}: invalid or duplicate embedding index ${item.index}`);
      }
      if (!Array.isArray(item.embedding)) throw new EmbeddingResponseError(`${this.model}: embedding ${index} is not a float array`);
      ordered[index] = item.embedding;
    });
    return ordered;
  }

  private checkAndNormalize(raw: number[]): Float32Array {
    if (raw.length !== this.dimensions) {
      throw new EmbeddingResponseError(
        `${this.model} returned a ${raw.length}-dimensional vector, expected ${this.dimensions}` +
          (this.requestDimensions !== undefined ? ' (EMBEDDING_DIMENSIONS)' : ' (probed at start-up)'),
      );
    }
    let sumSquares = 0;
    for (const value of raw) sumSquares += value * value;
    if (!Number.isFinite(sumSquares) || sumSquares === 0) {
      throw new EmbeddingResponseError(`${this.model} returned a zero or non-finite vector`);
    }
    const inverse = 1 / Math.sqrt(sumSquares);
    return Float32Array.from(raw, (value) => value * inverse);
  }
}

/** Retries rate limits, server errors, timeouts and dropped connections; never client errors. */
export function classifyOpenAIError(error: unknown): RetryDecision {
  if (error instanceof APIConnectionError) return { retry: true };
  if (!(error instanceof APIError) || error.status === undefined) return { retry: false };
  const retry = error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
  return { retry, delayMs: retryAfterMs(error.headers) };
}

function retryAfterMs(headers: Headers | undefined): number | undefined {
  const millis = Number(headers?.get('retry-after-ms'));
  if (millis > 0) return millis;
  const seconds = Number(headers?.get('retry-after'));
  return seconds > 0 ? seconds * 1000 : undefined;
}

export function createOpenAIEmbedder(options: OpenAIEmbedderOptions): Promise<OpenAIEmbedder> {
  return OpenAIEmbedder.create(options);
}
