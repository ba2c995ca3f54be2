import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { CONNECTIONS_CHECKING_INTERVAL_MS, REQUEST_TIMEOUT_MS } from '../../src/app/create-app';
import { limitConnectionsPerClient } from '../../src/http/connection-limit';
import { startTestApp, TestApp } from '../testing/test-app';

/**
 * Slow clients: a request that has not arrived in 60 s is cut within a second of it (Node looked at the
 * timeout only every 30 s, so it was cut after up to 90 s), and one address may hold only so many open
 * connections (there was no cap: one address could hold thousands of slow connections).
 */
const listening = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

/** A connection that sends half a request and stays open; `closed` settles when either side closes it. */
function halfRequest(port: number, sockets: Socket[]): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    sockets.push(socket);
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.once('connect', () => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      resolve({ socket, closed });
    });
  });
}

describe('slow and greedy clients', () => {
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((socket) => socket.destroy()));

  it('one address holds at most the cap of open connections: the next is closed at once, a freed slot is taken again', async () => {
    let accepted = 0;
    const server = createServer((_req, res) => res.end('ok'));
    limitConnectionsPerClient(server, 2, () => false);
    server.on('connection', () => (accepted += 1));
    const port = await listening(server);
    const first = await halfRequest(port, sockets);
    await halfRequest(port, sockets);
    const third = await halfRequest(port, sockets);
    // the third is closed by the server without an answer
    await third.closed;
    expect(accepted).toBe(3);
    // a freed slot: once the server has seen the first go, a new connection is answered
    first.socket.destroy();
    await first.closed;
    for (
      let round = 0;
      round < 100 && (await new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)))) > 1;
      round += 1
    )
      await new Promise((resolve) => setImmediate(resolve));
    const answer = await fetch(`http://127.0.0.1:${port}/`).then((res) => res.text());
    expect(answer).toBe('ok');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('a trusted reverse proxy is not capped: every user behind it arrives from its address', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    limitConnectionsPerClient(server, 1, (address) => address === '127.0.0.1' || address === '::ffff:127.0.0.1');
    const port = await listening(server);
    await halfRequest(port, sockets);
    await halfRequest(port, sockets);
    expect(await fetch(`http://127.0.0.1:${port}/`).then((res) => res.text())).toBe('ok');
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  describe('the API', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ maxConnectionsPerClient: 1 });
    });
    afterAll(() => t.close());

    it('bounds the time a request may take to arrive to the configured timeout, checked every second', () => {
      const server = t.app.getHttpServer() as Server & { connectionsCheckingInterval: number };
      expect(server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
      expect(REQUEST_TIMEOUT_MS).toBe(60_000);
      expect(server.connectionsCheckingInterval).toBe(CONNECTIONS_CHECKING_INTERVAL_MS);
      expect(CONNECTIONS_CHECKING_INTERVAL_MS).toBeLessThanOrEqual(1_000);
      expect(server.headersTimeout).toBeLessThanOrEqual(REQUEST_TIMEOUT_MS);
    });

    it('applies MAX_CONNECTIONS_PER_CLIENT: with one held, the address gets no other', async () => {
      const port = await listening(t.app.getHttpServer());
      const held = await halfRequest(port, sockets);
      await expect(fetch(`http://127.0.0.1:${port}/ping`)).rejects.toThrow();
      held.socket.destroy();
      await held.closed;
    });
  });
});
