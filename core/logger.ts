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

export function createLogger(level: string, name = 'engram', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = { name, level, base: { pid: process.pid }, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return destination ? pino(options, destination) : pino(options);
}
