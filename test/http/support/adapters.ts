import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Flagmount } from '@flagmount/core';
import { flagmountExpress } from '@flagmount/express';
import express from 'express';

/** A host app with Flagmount mounted at `prefix`, listening on loopback. */
export interface HostServer {
  origin: string;
  server: Server;
  close(): Promise<void>;
}

export interface AdapterFactory {
  name: 'express' | 'koa' | 'fastify';
  /** Starts a host app: its own JSON body parser, a host route `GET /host/ping`, Flagmount under `prefix`. */
  listen(instance: Flagmount, prefix: string): Promise<HostServer>;
}

// Node's default 16 KiB header limit is below a 16 KiB contextJson in the URL (architecture.md, "URL length").
export const MAX_HEADER_SIZE = 65536;

export async function listenNode(server: Server): Promise<HostServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const expressFactory: AdapterFactory = {
  name: 'express',
  async listen(instance, prefix) {
    const app = express();
    app.use(express.json());
    app.get('/host/ping', (_req, res) => {
      res.json({ host: true });
    });
    app.use(prefix, flagmountExpress(instance));
    return listenNode(createServer({ maxHeaderSize: MAX_HEADER_SIZE }, app));
  },
};

/** Every adapter the HTTP suite runs against; `FLAGMOUNT_ADAPTERS=express,koa` narrows it. */
export const allAdapters: AdapterFactory[] = [expressFactory];

export function selectedAdapters(): AdapterFactory[] {
  const wanted = process.env['FLAGMOUNT_ADAPTERS']?.split(',').map((s) => s.trim());
  return wanted ? allAdapters.filter((a) => wanted.includes(a.name)) : allAdapters;
}
