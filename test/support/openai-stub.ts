import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible HTTP server for tests: the only test double the
 * project allows, standing in for a paid external API.
 */
export interface ChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  response_format?: unknown;
  [key: string]: unknown;
}

export interface OpenAIStubOptions {
  /** Returns the assistant message content for a chat completion request. */
  chat?: (request: ChatRequest) => string | Promise<string>;
  /** Vector for one input; default is a deterministic hash-based unit vector. */
  embed?: (input: string, dimensions: number) => number[];
  /** Default embedding size when the request does not name `dimensions`. */
  dimensions?: number;
}

export interface OpenAIStub {
  /** Base URL including /v1, as the `openai` SDK expects. */
  url: string;
  requests: { path: string; body: any }[];
  /** Make the next `n` requests fail with HTTP `status` (to exercise retries). */
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

export function hashVector(input: string, dimensions: number): number[] {
  const out: number[] = [];
  let counter = 0;
  while (out.length < dimensions) {
    const digest = createHash('sha256').update(`${counter++}:${input}`).digest();
    for (let i = 0; i + 1 < digest.length && out.length < dimensions; i += 2) {
      out.push(digest.readInt16BE(i) / 32768);
    }
  }
  const norm = Math.hypot(...out) || 1;
  return out.map((v) => v / norm);
}

async function readJson(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

export async function startOpenAIStub(options: OpenAIStubOptions = {}): Promise<OpenAIStub> {
  const requests: { path: string; body: any }[] = [];
  let failures = 0;
  let failureStatus = 500;

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      const body = await readJson(req);
      const path = (req.url ?? '').split('?')[0];
      requests.push({ path, body });
      if (failures > 0) {
        failures--;
        return send(failureStatus, { error: { message: 'stub failure', type: 'server_error' } });
      }
      if (req.method === 'POST' && path.endsWith('/embeddings')) {
        const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
        const dims = body.dimensions ?? options.dimensions ?? 64;
        const embed = options.embed ?? hashVector;
        return send(200, {
          object: 'list',
          model: body.model,
          data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: embed(String(input), dims) })),
          usage: { prompt_tokens: 0, total_tokens: 0 },
        });
      }
      if (req.method === 'POST' && path.endsWith('/chat/completions')) {
        if (!options.chat) return send(404, { error: { message: 'no chat handler configured' } });
        const content = await options.chat(body as ChatRequest);
        return send(200, {
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
        });
      }
      return send(404, { error: { message: `no route ${req.method} ${path}` } });
    } catch (error) {
      return send(500, { error: { message: String(error) } });
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(n, status = 500) {
      failures = n;
      failureStatus = status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
