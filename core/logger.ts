import pino from 'pino';

export type Logger = pino.Logger;

/**
 * Fields that may hold end-user content or secrets. Log calls pass ids, counts and
 * timings only; this is the safety net should a record or request ever be logged whole.
 */
export const REDACTED_PATHS = [
  'content',
  'metadata',
  'query',
  'text',
  'object',
  'subject',
  'authorization',
  'apiKey',
  '*.content',
  '*.metadata',
  '*.query',
  '*.text',
  '*.object',
  '*.subject',
  '*.authorization',
  '*.apiKey',
  'headers.authorization',
  'req.headers.authorization',
];

/** Errors whose messages quote end-user text (a model's reply about a memory): logged by type only. */
const CONTENT_QUOTING_ERRORS = new Set(['LlmOutputError']);

function serializeError(error: unknown) {
  const out = pino.stdSerializers.err(error as Error);
  const name = (error as Error | undefined)?.name ?? '';
  if (out && (CONTENT_QUOTING_ERRORS.has(out.type) || CONTENT_QUOTING_ERRORS.has(name))) {
    const withheld = `${name || out.type}: [message withheld from logs: it quotes model output]`;
    return { ...out, message: withheld, stack: [withheld, ...(out.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line))].join('\n') };
  }
  return out;
}

export function createLogger(level: string, name = 'engram', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name,
    level,
    base: { pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return destination ? pino(options, destination) : pino(options);
}
