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
  /**
   * A partition: open connections stay open and new ones are accepted, but no byte goes through either way (what a
   * dropped network link or a firewall gives), until `restore()`.
   */
  stall(): void;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let stalled = false;
  const onConnection = (client: Socket) => {
    const upstream = new Socket();
    const pair = { client, upstream };
    pairs.add(pair);
    // Stalled: the client connects and waits, as it would across a partition.
    if (stalled) client.pause();
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
      if (stalled) freeze(pair);
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
  // Unpiped and paused, bytes wait in the sockets' buffers; nothing is lost, nothing arrives.
  type Pair = { client: Socket; upstream: Socket };
  const frozen = new Set<Pair>();
  const freeze = (pair: Pair) => {
    if (pair.upstream.connecting || frozen.has(pair)) return;
    frozen.add(pair);
    const { client, upstream } = pair;
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  return {
    port,
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((p): p is number => typeof p === 'number'),
    async cut() {
      const closed = stop();
      resetAll();
      await closed;
    },
    stall() {
      stalled = true;
      for (const pair of pairs) freeze(pair);
    },
    async restore() {
      if (stalled) {
        stalled = false;
        for (const pair of frozen) {
          const { client, upstream } = pair;
          client.pipe(upstream);
          upstream.pipe(client);
          client.resume();
          upstream.resume();
        }
        frozen.clear();
      }
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
