import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../core/config.js';
import { createServices, type ServiceOptions } from '../composition/bootstrap.js';
import type { Services } from '../core/services.js';
import { createApp } from './app.js';

/** Request line and headers: room for a maximal query string (16,000 characters, up to 12 bytes each encoded). */
export const MAX_HEADER_BYTES = 256 * 1024;

export interface RunningServer {
  services: Services;
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Builds services and listens; used by `npm start` and by the HTTP tests (port 0). */
export async function startServer(config: Config, options: ServiceOptions = {}): Promise<RunningServer> {
  const services = await createServices(config, options);
  const app = createApp(services);
  // A 16,000-character `query` on GET /v1/context, percent-encoded, is far beyond Node's default 16 KiB header limit.
  const server = createHttpServer({ maxHeaderSize: MAX_HEADER_BYTES }, app.callback()).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port } = server.address() as AddressInfo;
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return {
    services,
    server,
    url: `http://${host}:${port}`,
    async close() {
      await closeGracefully(server, config.SHUTDOWN_GRACE_MS);
      await services.close();
    },
  };
}

/**
 * Stops accepting connections and lets the requests in flight finish: idle keep-alive connections are closed as
 * soon as they are idle, and whatever is still open after `graceMs` is closed.
 */
export async function closeGracefully(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  const idleSweep = setInterval(() => server.closeIdleConnections(), 50);
  const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
  server.closeIdleConnections();
  try {
    await closed;
  } finally {
    clearInterval(idleSweep);
    clearTimeout(deadline);
  }
}
