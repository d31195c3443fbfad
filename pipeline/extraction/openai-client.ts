import OpenAI from 'openai';

/** Settings the LLM extractor and judge read from the service config. */
export interface OpenAISettings {
  OPENAI_BASE_URL?: string;
  OPENAI_API_KEY?: string;
}

export interface OpenAIClientOptions {
  /** SDK-level retries. Default 0: the pipeline's job retries own retrying. */
  maxRetries?: number;
  timeoutMs?: number;
}

/** The model answered, but not with output we can use. Retrying may help. */
export class LlmOutputError extends Error {
  override name = 'LlmOutputError';
}

export function createOpenAIClient(settings: OpenAISettings, options: OpenAIClientOptions = {}): OpenAI {
  if (!settings.OPENAI_API_KEY && !settings.OPENAI_BASE_URL) {
    throw new Error('The openai extractor/judge needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server)');
  }
  return new OpenAI({
    apiKey: settings.OPENAI_API_KEY || 'not-needed-for-local-server',
    baseURL: settings.OPENAI_BASE_URL,
    maxRetries: options.maxRetries ?? 0,
    timeout: options.timeoutMs ?? 60_000,
  });
}

/** Sends one chat completion constrained to `schema` and returns the parsed JSON of the reply. */
export async function completeJson(
  client: OpenAI,
  request: { model: string; system: string; user: string; schemaName: string; schema: Record<string, unknown> },
): Promise<unknown> {
  const completion = await client.chat.completions.create({
    model: request.model,
    temperature: 0,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
    response_format: { type: 'json_schema', json_schema: { name: request.schemaName, strict: true, schema: request.schema } },
  });
  const choice = completion.choices?.[0];
  const content = choice?.message?.content;
  if (choice?.message && 'refusal' in choice.message && choice.message.refusal) throw new LlmOutputError(`model refused: ${choice.message.refusal}`);
  if (typeof content !== 'string' || content.trim() === '') throw new LlmOutputError('model returned no content');
  try {
    return JSON.parse(content);
  } catch {
    throw new LlmOutputError(`model returned invalid JSON: ${content.slice(0, 200)}`);
  }
}
