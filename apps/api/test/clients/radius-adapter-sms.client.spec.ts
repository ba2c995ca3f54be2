import { AccountId, parseHttpGatewaySettings, RA_STATUSES } from '@twofold/domain';
import { FAKE_GATEWAY_SECRET_BODY, FakePhoneGateway } from '../testing/fake-phone-gateway';
import { startTestApp, TestApp } from '../testing/test-app';
import { clientReading, RA_MODEL_FIELDS, totpCode, totpUser } from './client-kit';

/**
 * The RADIUS adapter's SMS flow, replayed as it sends it. v1 (and v2 configured for it) sends the
 * letter `s` as the first step's `passCode`; v2 sends `passCode: null`, and the user types `s` at the
 * VPN's code prompt, which arrives as the `challenge`. Either way the `id` of the
 * AwaitingAuthentication answer is kept as the RADIUS State, the Reply-Message tells where the code
 * went, and the code the user then types comes back as the `challenge` with that State. The codes
 * go through a loopback provider configured as the service's SMS gateway.
 */
describe('client: RADIUS adapter, codes by SMS (ra `s`, ra/challenge)', () => {
  let t: TestApp;
  let fake: FakePhoneGateway;
  let accountId: AccountId;
  let vpn: Awaited<ReturnType<TestApp['newResource']>>;

  beforeAll(async () => {
    fake = await FakePhoneGateway.start();
    const sms = parseHttpGatewaySettings({
      url: `${fake.url}/sms`,
      bodyFormat: 'json',
      body: { to: '{phone}', text: '{text}' },
      successContains: 'queued',
      timeoutMs: 300,
    });
    t = await startTestApp({ phoneGateways: { sms } });
    accountId = (await t.newAccount()).account.id;
    vpn = await t.newResource(accountId, 'VPN');
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  /** A user with a TOTP token and a phone, as an administrator set them up. */
  async function userWithPhone(identity: string) {
    const { user } = await totpUser(t, accountId, identity);
    await t.database.dataSource.query(
      `INSERT INTO phones (account_id, user_id, number, created_at) VALUES ($1, $2, '+79991234512', now())`,
      [accountId, user.id],
    );
  }

  /** The v2 adapter's first-step body: every property serialized, nulls included. */
  const firstStep = (identity: string, passCode: string | null) => ({
    identity,
    name: null,
    email: null,
    phone: null,
    passCode,
    callingStationId: '198.51.100.23',
    calledStationId: 'vpn-gw-1',
    capabilities: { inlineEnroll: true },
    groupPolicyPreset: { signUpGroups: '' },
  });

  const call = (path: 'ra' | 'ra/challenge', body: object) =>
    t
      .as(vpn.authorization)
      .post(`/access/requests/${path}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body));

  /** Reads an answer as the adapter does; fails where the adapter would count "unreachable". */
  function asAdapter(res: { status: number; body: { success: boolean; model: Record<string, unknown> | null } }) {
    expect(clientReading(res.status)).toBe('answer');
    const model = res.body.model as { id: string | null; status: string; replyMessage: string; authenticator: string | null };
    expect(Object.keys(model).sort()).toEqual(RA_MODEL_FIELDS);
    expect(RA_STATUSES).toContain(model.status);
    expect(res.body.success).toBe(model.status !== 'Denied');
    expect(Buffer.byteLength(model.replyMessage, 'utf8')).toBeLessThanOrEqual(253);
    return model;
  }
  const smsCode = () => /(\d{6})/.exec(fake.lastFields()['text'] ?? '')?.[1] as string;

  it('v1: passCode `s` → the code by SMS, the Reply-Message names the masked number; the code typed is the challenge → Granted', async () => {
    await userWithPhone('CORP\\sms.anna');
    const first = asAdapter(await call('ra', firstStep('CORP\\sms.anna', 's')));
    expect(first).toMatchObject({ status: 'AwaitingAuthentication', replyMessage: 'Код отправлен по SMS на +7 ••• •• 12. Введите код.' });
    expect(fake.lastFields()['to']).toBe('+79991234512');
    const code = smsCode();
    expect(first.replyMessage).not.toContain(code);

    const granted = asAdapter(await call('ra/challenge', { identity: 'CORP\\sms.anna', challenge: code, requestId: first.id }));
    expect(granted).toMatchObject({ id: first.id, status: 'Granted', authenticator: 'Sms' });
    // the adapter retransmits an Access-Request it got no answer to: the State is decided
    const again = asAdapter(await call('ra/challenge', { identity: 'CORP\\sms.anna', challenge: code, requestId: first.id }));
    expect(again.status).toBe('Denied');
  });

  it('v2: passCode null → the code prompt; `s` typed at it sends the SMS on the same State; then the code → Granted', async () => {
    await userWithPhone('sms.boris');
    const first = asAdapter(await call('ra', firstStep('sms.boris', null)));
    expect(first).toMatchObject({
      status: 'AwaitingAuthentication',
      replyMessage: 'Введите код из приложения-аутентификатора или токена.',
    });
    const asked = asAdapter(await call('ra/challenge', { identity: 'sms.boris', challenge: 's', requestId: first.id }));
    expect(asked).toMatchObject({
      id: first.id,
      status: 'AwaitingAuthentication',
      replyMessage: 'Код отправлен по SMS на +7 ••• •• 12. Введите код.',
    });
    const granted = asAdapter(await call('ra/challenge', { identity: 'sms.boris', challenge: smsCode(), requestId: first.id }));
    expect(granted).toMatchObject({ status: 'Granted', authenticator: 'Sms' });
  });

  it('v2: after `s` the token code still works on the same State', async () => {
    await userWithPhone('sms.vera');
    const first = asAdapter(await call('ra', firstStep('sms.vera', 's')));
    const granted = asAdapter(await call('ra/challenge', { identity: 'sms.vera', challenge: totpCode(t), requestId: first.id }));
    expect(granted).toMatchObject({ status: 'Granted', authenticator: 'TotpToken' });
  });

  it("the SMS provider down: Denied at once (an answer, not an outage), the provider's body never in the Reply-Message", async () => {
    await userWithPhone('sms.gleb');
    fake.mode = 'fail';
    try {
      const res = await call('ra', firstStep('sms.gleb', 's'));
      const denied = asAdapter(res);
      expect(denied).toMatchObject({
        status: 'Denied',
        replyMessage: 'Доступ запрещён: не удалось отправить код по SMS. Повторите позже.',
      });
      expect(res.text).not.toContain(FAKE_GATEWAY_SECRET_BODY);
    } finally {
      fake.mode = 'ok';
    }
  });
});
