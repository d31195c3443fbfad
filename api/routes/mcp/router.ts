import Router from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ApiError } from '../../../core/errors.js';
import type { Services } from '../../../core/services.js';
import { ENGRAM_VERSION as version } from '../../../core/version.js';
import { EngramHttpClient } from '../../mcp/client.js';
import { createMcpServer } from '../../mcp/tools.js';
import { authenticate, bodyOf } from '../../middleware.js';

/**
 * Streamable HTTP MCP at `/mcp`, stateless (one JSON-RPC exchange per POST),
 * behind the same bearer keys as the REST API. Tools call this very server's
 * REST API over loopback with the caller's key, so they share its scopes,
 * limits and errors.
 */
export function mcpRoutes(svc: Services): Router {
  const router = new Router();
  router.post('/mcp', authenticate(svc), async (ctx) => {
    const key = /^Bearer\s+(\S+)/i.exec(ctx.get('authorization'))![1];
    const socket = ctx.req.socket;
    const host = socket.localAddress?.includes(':') ? `[${socket.localAddress}]` : socket.localAddress;
    const server = createMcpServer(new EngramHttpClient(`http://${host}:${socket.localPort}`, key), version);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    ctx.status = 200;
    ctx.respond = false;
    await transport.handleRequest(ctx.req, ctx.res, bodyOf(ctx));
  });
  // Stateless: no server-initiated stream and no session to end.
  router.all('/mcp', authenticate(svc), () => {
    throw new ApiError(405, 'method_not_allowed', 'Method not allowed for this path; MCP clients POST to /mcp');
  });
  return router;
}
