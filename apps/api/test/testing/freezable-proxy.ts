import { connect, createServer, Socket } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that can freeze: while frozen it forwards nothing either way and
 * holds new connections without answering, as a stopped (SIGSTOP) or unreachable server behaves to
 * its clients. Thawed, it delivers what it held, in order.
 */
export interface FreezableProxy {
  port: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

interface Link {
  client: Socket;
  server: Socket | null;
  toServer: Buffer[];
  toClient: Buffer[];
}

export async function startFreezableProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  let frozen = false;
  const links = new Set<Link>();

  const flush = (link: Link) => {
    if (frozen) return;
    if (!link.server) {
      const server = connect(target.port, target.host);
      link.server = server;
      server.on('data', (data) => {
        link.toClient.push(data);
        flush(link);
      });
      server.on('close', () => link.client.destroy());
      server.on('error', () => link.client.destroy());
    }
    for (const data of link.toServer.splice(0)) link.server.write(data);
    for (const data of link.toClient.splice(0)) link.client.write(data);
  };

  const proxy = createServer((client) => {
    const link: Link = { client, server: null, toServer: [], toClient: [] };
    links.add(link);
    client.on('data', (data) => {
      link.toServer.push(data);
      flush(link);
    });
    client.on('close', () => {
      links.delete(link);
      link.server?.destroy();
    });
    client.on('error', () => client.destroy());
    flush(link);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));

  return {
    port: (proxy.address() as { port: number }).port,
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const link of links) flush(link);
    },
    close: () => {
      for (const link of links) {
        link.client.destroy();
        link.server?.destroy();
      }
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
