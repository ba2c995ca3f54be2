import { Server } from 'node:http';
import { Socket } from 'node:net';

/**
 * Open connections one client address may hold. A slow client holds a connection up to the request
 * timeout; without a cap one address could hold thousands and starve everyone (the process' file
 * descriptors, the memory of their buffers). Far above what a real integration opens: a RADIUS
 * adapter or a portal keeps a few keep-alive connections.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

/**
 * Closes a new connection at once when its address already holds `max` open ones. The addresses of
 * trusted reverse proxies are not counted: every user behind them arrives from them.
 */
export function limitConnectionsPerClient(server: Server, max: number, isTrustedProxy: (address: string) => boolean): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isTrustedProxy(address)) return;
    const held = open.get(address) ?? 0;
    if (held >= max) {
      socket.destroy();
      return;
    }
    open.set(address, held + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
