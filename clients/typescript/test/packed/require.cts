// The CommonJS entry point and its types: compiled to require() by tsc (NodeNext) and run.
import { Engram, ValidationError } from '@engram/client';

declare const process: { env: Record<string, string | undefined> };

async function main(): Promise<void> {
  const engram = new Engram({ baseUrl: process.env.ENGRAM_URL!, apiKey: process.env.ENGRAM_API_KEY! });
  const ping = await engram.ping();
  if (!ping.ok) throw new Error('ping');
  const invalid = await engram.search({ query: '' }).catch((e: unknown) => e);
  if (!(invalid instanceof ValidationError) || invalid.code !== 'invalid_request') throw new Error('expected a ValidationError');
  console.log('CJS OK');
}
void main();
