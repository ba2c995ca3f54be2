import { AddressInfo, Socket } from 'node:net';
import { AccountId, parseServicePhoneGateway, parseSmppGatewaySettings, ValidationFailed } from '@twofold/domain';
import { newUser } from '@twofold/persistence/testing';
import { createServer, ESME_RBINDFAIL, ESME_RSUBMITFAIL, Server, Session } from 'smpp';
import { startTestApp, TestApp } from '../../test/testing/test-app';

/** A loopback SMS centre: it takes binds and messages as its mode says, and records each message. */
class FakeSmsc {
  mode: 'ok' | 'badBind' | 'badSubmit' | 'silent' = 'ok';
  readonly messages: { systemId: string; password: string; from: string; to: string; text: string }[] = [];
  private readonly sockets = new Set<Socket>();
  private credentials = { systemId: '', password: '' };

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeSmsc> {
    const server = createServer();
    const fake = new FakeSmsc(server);
    server.on('session', (session: Session) => fake.serve(session));
    server.on('connection', (socket: Socket) => {
      fake.sockets.add(socket);
      socket.on('close', () => fake.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    return `smpp://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private serve(session: Session): void {
    session.on('error', () => undefined);
    session.on('bind_transmitter', (pdu) => {
      if (this.mode === 'silent') return;
      this.credentials = { systemId: pdu.system_id ?? '', password: pdu.password ?? '' };
      session.send(pdu.response(this.mode === 'badBind' ? { command_status: ESME_RBINDFAIL } : {}));
    });
    session.on('submit_sm', (pdu) => {
      const body = pdu.short_message;
      const text = typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : String(body);
      this.messages.push({ ...this.credentials, from: pdu.source_addr ?? '', to: pdu.destination_addr ?? '', text });
      session.send(pdu.response(this.mode === 'badSubmit' ? { command_status: ESME_RSUBMITFAIL } : { message_id: 'm1' }));
    });
    session.on('unbind', (pdu) => {
      session.send(pdu.response());
      session.close();
    });
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('the SMPP gateway (SMS_GATEWAY kind smpp) against a loopback SMS centre', () => {
  let t: TestApp;
  let smsc: FakeSmsc;
  let accountId: AccountId;
  let accountAuth: string;
  let resource: Awaited<ReturnType<TestApp['newResource']>>;
  let n = 0;

  beforeAll(async () => {
    smsc = await FakeSmsc.start();
    const sms = parseServicePhoneGateway({
      kind: 'smpp',
      url: smsc.url,
      systemId: 'twofold',
      password: 'sm-pass1',
      sourceAddr: 'Twofold',
      timeoutMs: 500,
    });
    t = await startTestApp({ phoneGateways: { sms } });
    const account = await t.newAccount();
    accountId = account.account.id;
    accountAuth = account.authorization;
    resource = await t.newResource(accountId, 'VPN');
  });
  afterAll(async () => {
    await t.close();
    await smsc.close();
  });
  beforeEach(() => {
    smsc.mode = 'ok';
  });

  async function userWithPhone(): Promise<string> {
    const identity = `smpp-user-${++n}`;
    const user = await newUser(t.db, accountId, identity, { now: t.clock.now() });
    await t.database.dataSource.query(
      `INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, '+79991234512', now())`,
      [accountId, user.id],
    );
    return identity;
  }
  const ra = (body: object) =>
    t
      .as(resource)
      .post('/access/requests/ra')
      .send({ language: 'en', ...body });

  it('`s` binds with the system id and password, submits the text to the number, and the code it carried grants', async () => {
    const identity = await userWithPhone();
    const sent = await ra({ identity, passCode: 's' });
    expect(sent.body.model).toMatchObject({ status: 'AwaitingAuthentication' });
    const message = smsc.messages.at(-1);
    expect(message).toMatchObject({ systemId: 'twofold', password: 'sm-pass1', from: 'Twofold', to: '79991234512' });
    const code = /(\d{6})/.exec(message?.text ?? '')?.[1] ?? '';
    expect(message?.text).toBe(`Код для входа: ${code}. Sign-in code: ${code}`);
    const granted = await t
      .as(resource)
      .post('/access/requests/ra/challenge')
      .send({ identity, challenge: code, requestId: sent.body.model.id });
    expect(granted.body.model).toMatchObject({ status: 'Granted', authenticator: 'Sms' });
  });

  it.each(['badBind', 'badSubmit', 'silent'] as const)('an SMS centre in %s mode: Denied at once, nothing stored', async (mode) => {
    const identity = await userWithPhone();
    smsc.mode = mode;
    const denied = await ra({ identity, passCode: 's' });
    expect(denied.body.model).toMatchObject({
      status: 'Denied',
      replyMessage: 'Access denied: could not send the code by SMS. Try again later.',
    });
    const [row] = await t.database.dataSource.query(
      `SELECT count(*)::int AS n FROM phone_codes p JOIN users u ON u.id = p.user_id WHERE u.identity = $1`,
      [identity],
    );
    expect(row.n).toBe(0);
    expect((await t.http().get('/metrics')).text).toMatch(
      new RegExp(`twofold_phone_codes_total\\{method="sms",outcome="${mode === 'silent' ? 'timeout' : 'status'}"\\} [1-9]`),
    );
  });

  it('the settings answer shows where the SMS centre is, never its system id or password', async () => {
    const shown = await t.as(accountAuth).get('/settings/sms-gateway');
    expect(shown.body.model).toMatchObject({ source: 'service', url: smsc.url });
    expect(JSON.stringify(shown.body)).not.toContain('sm-pass1');
    expect(JSON.stringify(shown.body)).not.toContain('twofold"');
  });

  it('takes smpp:// and ssmpp:// URLs and SMPP’s bounds on the credentials', () => {
    expect(parseSmppGatewaySettings({ kind: 'smpp', url: 'ssmpp://smsc.example', systemId: 'a', password: '' })).toMatchObject({
      host: 'smsc.example',
      port: 3550,
      tls: true,
      sourceAddr: null,
      timeoutMs: 5000,
    });
    const refused = (raw: object) => () => parseServicePhoneGateway(raw);
    expect(refused({ kind: 'smpp', url: 'http://smsc.example', systemId: 'a', password: 'b' })).toThrow(ValidationFailed);
    expect(refused({ kind: 'smpp', url: 'smpp://smsc.example:2775', systemId: 'a'.repeat(16), password: 'b' })).toThrow(
      'systemId must be 1 to 15 characters.',
    );
    expect(refused({ kind: 'smpp', url: 'smpp://smsc.example:2775', systemId: 'a', password: '123456789' })).toThrow(
      'password must be a string of at most 8 characters.',
    );
    expect(refused({ kind: 'carrier-pigeon' })).toThrow('kind must be http or smpp.');
  });
});
