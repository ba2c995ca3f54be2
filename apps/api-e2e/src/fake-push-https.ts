import { spawnSync } from 'node:child_process';
import { createECDH, ECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// an independent RFC 8188/8291 implementation (Mozilla's), to read what the service encrypted
const ece: { decrypt(body: Buffer, params: { version: string; privateKey: ECDH; authSecret: string }): Buffer } = require('http_ece');

/** A subscription on the fake push service: what a browser would hold (its ECDH key and auth secret). */
export interface HttpsPushSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
  ecdh: ECDH;
}

/**
 * A Web Push service on loopback over https, as the built service demands of every subscription
 * (http is admitted only by a test setting the process has no environment variable for): a
 * self-signed certificate for 127.0.0.1 made by openssl, which the API process trusts through
 * NODE_EXTRA_CA_CERTS (`caFile`). It keeps each message and decrypts it as the browser would.
 */
export class HttpsPushService {
  private readonly received: { subscriptionId: string; body: Buffer }[] = [];
  private readonly subscriptions = new Map<string, HttpsPushSubscription>();
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    private readonly directory: string,
    readonly url: string,
    readonly caFile: string,
  ) {}

  static async start(): Promise<HttpsPushService> {
    const directory = mkdtempSync(join(tmpdir(), 'twofold-push-'));
    const key = join(directory, 'key.pem');
    const cert = join(directory, 'cert.pem');
    const generated = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { encoding: 'utf8' },
    );
    if (generated.status !== 0) throw new Error(`openssl could not make the push service's certificate: ${generated.stderr}`);
    const handler: { service?: HttpsPushService } = {};
    const server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const id = /^\/push\/([0-9a-f]+)$/.exec(req.url ?? '')?.[1];
        const service = handler.service as HttpsPushService;
        if (req.method !== 'POST' || !id || !service.subscriptions.has(id)) {
          res.writeHead(404).end();
          return;
        }
        service.received.push({ subscriptionId: id, body: Buffer.concat(chunks) });
        service.waiters.splice(0).forEach((wake) => wake());
        res.writeHead(201, { location: `${service.url}/message/${randomBytes(4).toString('hex')}` }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    handler.service = new HttpsPushService(server, directory, `https://127.0.0.1:${(server.address() as AddressInfo).port}`, cert);
    return handler.service;
  }

  subscribe(): HttpsPushSubscription {
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

  /** The text of the `index`-th message to the subscription, decrypted with its keys, once it arrived. */
  async message(subscription: HttpsPushSubscription, index: number, timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const pushes = this.received.filter((push) => push.subscriptionId === subscription.id);
      if (pushes.length > index)
        return ece
          .decrypt(pushes[index].body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.keys.auth })
          .toString('utf8');
      if (Date.now() > deadline) throw new Error(`no push message ${index} reached the push service within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  count(subscription: HttpsPushSubscription): number {
    return this.received.filter((push) => push.subscriptionId === subscription.id).length;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    rmSync(this.directory, { recursive: true, force: true });
  }
}
