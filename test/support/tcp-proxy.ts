import { createServer, Socket, type Server } from 'node:net';

/**
 * A loopback TCP proxy in front of a database, so a test can make the database "go away" for one store only:
 * `cut()` resets every open connection and stops listening (new connections are refused), `restore()` listens
 * again on the same port. Other tests sharing the server are unaffected.
 */
export interface TcpProxy {
  readonly port: number;
  /** Local ports of the proxy's connections to the server: `pg_stat_activity.client_port` of those backends. */
  upstreamPorts(): number[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const onConnection = (client: Socket) => {
    const upstream = new Socket();
    const pair = { client, upstream };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    upstream.connect(target.port, target.host, () => {
      client.pipe(upstream);
      upstream.pipe(client);
    });
  };
  let server: Server = createServer(onConnection);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as { port: number }).port);
      });
    });
  const port = await listen(0);
  let listening = true;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!listening) return resolve();
      listening = false;
      server.close(() => resolve());
    });
  const resetAll = () => {
    for (const { client, upstream } of [...pairs]) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
    pairs.clear();
  };
  return {
    port,
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((p): p is number => typeof p === 'number'),
    async cut() {
      const closed = stop();
      resetAll();
      await closed;
    },
    async restore() {
      if (listening) return;
      server = createServer(onConnection);
      await listen(port);
      listening = true;
    },
    async close() {
      const closed = stop();
      resetAll();
      await closed;
    },
  };
}
