import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from '../core/config.js';
import { createServices, type ServiceOptions } from '../core/bootstrap.js';
import type { Services } from '../core/services.js';
import { createApp } from './app.js';

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
  const server = app.listen(config.PORT, config.HOST);
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
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.close();
    },
  };
}
