import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bundleForPage } from './bundle.js';

/** The published browser SDK, bundled from node_modules at test time, exposed as `window.ReflagClient`. */
export function bundleBrowserSdk(): Promise<string> {
  return bundleForPage("import { ReflagClient } from '@reflag/browser-sdk';\nwindow.ReflagClient = ReflagClient;\n");
}

export interface PageServer {
  origin: string;
  close(): Promise<void>;
}

/**
 * A second, unrelated site on another port (cross-origin to the host app): `/sdk.js` is the SDK bundle, `/` the
 * page `head()` renders (its <head> content, after the SDK script), rendered per request.
 */
export async function startPageServer(sdk: string, head: () => string = () => ''): Promise<PageServer> {
  const server = createServer((req, res) => {
    if (req.url === '/sdk.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(sdk);
    } else if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><link rel="icon" href="data:,"><script src="/sdk.js"></script>${head()}</head><body><h1>Shop</h1></body></html>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
