import { createECDH, ECDH, randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
// an independent RFC 8188/8291 implementation (Mozilla's), to check what `web-push` encrypted
const ece: { decrypt(body: Buffer, params: { version: string; privateKey: ECDH; authSecret: string }): Buffer } = require('http_ece');

/** A browser's push subscription on the fake service: what the browser keeps (its key and auth secret) and what it gives the app. */
export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** the browser's ECDH key, which decrypts the messages */
  ecdh: ECDH;
}

export interface ReceivedPush {
  subscriptionId: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A Web Push service on loopback (RFC 8030's push resource, over plain http): subscriptions made on
 * demand, messages kept as they arrived (encrypted), and answers on demand per subscription (201
 * by default; 404/410 for a subscription it forgot, 429, 500, or never answering). `decrypt` reads a
 * message as the browser would, with the subscription's private key and auth secret.
 */
export class FakePushService {
  readonly received: ReceivedPush[] = [];
  private readonly answers = new Map<string, number | 'hang'>();
  /** answers given once each, in order, before the standing one (`answer`) */
  private readonly nextAnswers = new Map<string, { status: number; retryAfter?: string }[]>();
  /** every attempt the service saw, answered or not, per subscription */
  private readonly attempts = new Map<string, number>();
  private waiters: (() => void)[] = [];
  private readonly subscriptions = new Map<string, FakeSubscription>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<FakePushService> {
    const handler: { service?: FakePushService } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => handler.service?.onPush(req.url ?? '', req.method ?? '', req.headers, Buffer.concat(chunks), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    handler.service = new FakePushService(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return handler.service;
  }

  subscribe(): FakeSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const id = randomBytes(8).toString('hex');
    const subscription = {
      id,
      endpoint: `${this.url}/push/${id}`,
      keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
      ecdh,
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  /** How the service answers pushes to this subscription from now on. */
  answer(subscription: FakeSubscription, status: number | 'hang'): void {
    this.answers.set(subscription.id, status);
  }

  /** The next pushes to this subscription get these answers, one each (`retryAfter`: a 429's Retry-After header). */
  answerNext(subscription: FakeSubscription, ...answers: (number | { status: number; retryAfter?: string })[]): void {
    this.nextAnswers.set(
      subscription.id,
      answers.map((answer) => (typeof answer === 'number' ? { status: answer } : answer)),
    );
  }

  /** How many POSTs reached this subscription's endpoint, whatever they were answered. */
  attemptsTo(subscription: FakeSubscription): number {
    return this.attempts.get(subscription.id) ?? 0;
  }

  decrypt(push: ReceivedPush): string {
    const subscription = this.subscriptions.get(push.subscriptionId);
    if (!subscription) throw new Error('no such subscription');
    return ece
      .decrypt(push.body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.keys.auth })
      .toString('utf8');
  }

  /** The next message for the subscription after the first `after` it received. */
  async nextPush(subscription: FakeSubscription, after = 0): Promise<ReceivedPush> {
    for (;;) {
      const pushes = this.received.filter((push) => push.subscriptionId === subscription.id);
      if (pushes.length > after) return pushes[after];
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  pushesTo(subscription: FakeSubscription): ReceivedPush[] {
    return this.received.filter((push) => push.subscriptionId === subscription.id);
  }

  private onPush(url: string, method: string, headers: IncomingHttpHeaders, body: Buffer, res: import('node:http').ServerResponse): void {
    const id = /^\/push\/([0-9a-f]+)$/.exec(url)?.[1];
    if (method !== 'POST' || !id || !this.subscriptions.has(id)) {
      res.writeHead(404).end();
      return;
    }
    this.attempts.set(id, (this.attempts.get(id) ?? 0) + 1);
    const queued = this.nextAnswers.get(id)?.shift();
    const answer = queued?.status ?? this.answers.get(id) ?? 201;
    if (answer === 'hang') return;
    if (queued?.retryAfter !== undefined && answer !== 201) {
      res.writeHead(answer, { 'retry-after': queued.retryAfter }).end();
      return;
    }
    if (answer === 201) {
      this.received.push({ subscriptionId: id, headers, body });
      const waiters = this.waiters;
      this.waiters = [];
      waiters.forEach((wake) => wake());
    }
    res.writeHead(answer, answer === 201 ? { location: `${this.url}/message/${randomBytes(4).toString('hex')}` } : {}).end();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
