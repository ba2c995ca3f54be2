import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/**
 * A loopback SMS or voice provider for the tests: it records each request and answers as its mode
 * says. `ok`: 200 `{"status":"queued"}`; `fail`: 500 with a body that must never be shown; `slow`:
 * never answers (the gateway's timeout ends the call); `garbage`: 200 with a body no success check
 * accepts.
 */
export type FakeGatewayMode = 'ok' | 'fail' | 'slow' | 'garbage';

export interface FakeGatewayRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the failing modes answer: a test checks it never reaches a client. */
export const FAKE_GATEWAY_SECRET_BODY = 'provider-internal-error balance=0 apiKey=fake-provider-key';

export class FakePhoneGateway {
  mode: FakeGatewayMode = 'ok';
  readonly requests: FakeGatewayRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;

  private constructor() {
    this.server = createServer((req, res) => this.handle(req, res));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  static async start(): Promise<FakePhoneGateway> {
    const fake = new FakePhoneGateway();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The last request's body, parsed as JSON or a form. */
  lastFields(): Record<string, string> {
    const last = this.requests.at(-1);
    if (!last) return {};
    if (String(last.headers['content-type']).includes('json')) return JSON.parse(last.body);
    return Object.fromEntries(new URLSearchParams(last.body));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      this.requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      switch (this.mode) {
        case 'ok':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"queued"}');
          return;
        case 'fail':
          res.writeHead(500, { 'content-type': 'text/plain' }).end(FAKE_GATEWAY_SECRET_BODY);
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'text/html' }).end(`<html>${FAKE_GATEWAY_SECRET_BODY}</html>`);
          return;
        case 'slow':
          // no answer: the caller's timeout ends it, close() drops the connection
          return;
      }
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
