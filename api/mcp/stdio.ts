import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { EngramHttpClient } from './client.js';
import { createMcpServer } from './tools.js';
import { ENGRAM_VERSION as version } from '../../core/version.js';

/** `npm run --silent mcp`: an MCP server over stdio that talks to a running Engram over HTTP. */
const url = process.env.ENGRAM_URL || 'http://localhost:8080';
const key = process.env.ENGRAM_API_KEY;
if (!key) {
  process.stderr.write('ENGRAM_API_KEY is required (an Engram key, eng_…); ENGRAM_URL defaults to http://localhost:8080\n');
  process.exit(2);
}
const server = createMcpServer(new EngramHttpClient(url, key), version);
await server.connect(new StdioServerTransport());
process.stdin.on('close', () => void server.close().then(() => process.exit(0)));
