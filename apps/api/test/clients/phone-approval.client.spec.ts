import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { ApprovalsRepository } from '@twofold/persistence';
import { RA_STATUSES } from '@twofold/domain';
import { clientReading, RA_MODEL_FIELDS, totpUser } from './client-kit';
import { PhoneApprovalKit, startPhoneApprovalKit } from './phone-approval.testing';

const APPROVE = 'Yes, it is me';
const NOT_ME = "It wasn't me";

/**
 * Confirming a sign-in on the phone, with the RADIUS adapter and the directory server replayed as they
 * call us (CLIENTS.md): RADIUS v1 sends `passCode` `t` (Telegram) or `m` (push) when configured for it,
 * v2 sends `passCode: null` and lets the service choose, and a user may type `t` at the VPN's code
 * prompt (the `challenge`); a directory server's bind sends `m` whenever the password carries no code.
 * No client polls: each holds its request open and reads the final answer, which must be a 200 with
 * the whole model before its own timer (60-65 s). The person presses buttons on the fake Bot API.
 */
describe('client: confirming on the phone (RADIUS adapter, directory server)', () => {
  let kit: PhoneApprovalKit;
  let vpn: Awaited<ReturnType<PhoneApprovalKit['t']['newResource']>>;
  let directory: typeof vpn;

  beforeAll(async () => {
    kit = await startPhoneApprovalKit();
    vpn = await kit.t.newResource(kit.accountId, 'Staff VPN');
    directory = await kit.t.newResource(kit.accountId, 'MultiDirectory');
  });
  afterAll(() => kit?.close());
  beforeEach(() => kit.fake.clearFailures());

  /** The v2 adapter's first-step body: every property serialized, nulls included. */
  const radiusBody = (identity: string, passCode: string | null) => ({
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
  const radius = (path: 'ra' | 'ra/challenge', body: object) =>
    kit.t
      .http()
      .post(`/access/requests/${path}`)
      .set('Authorization', vpn.authorization)
      .set('mf-trace-id', `rds-${randomUUID()}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify(body))
      .then((res) => res);
  const bind = (identity: string, passCode: string) =>
    kit.t
      .http()
      .post('/access/requests/md')
      .set('Authorization', directory.authorization)
      .set('mf-trace-id', `md:${randomUUID()}`)
      .send({ Identity: identity, passCode, GroupPolicyPreset: {} })
      .then((res) => res);

  /** Reads an answer as the RADIUS adapter does: 200, the whole model, a status of its enum. */
  function asAdapter(res: { status: number; body: { success: boolean; model: Record<string, unknown> | null } }) {
    expect(clientReading(res.status)).toBe('answer');
    expect(Object.keys(res.body.model as object).sort()).toEqual(RA_MODEL_FIELDS);
    const model = res.body.model as { id: string; status: string; replyMessage: string; authenticator: string; authenticatorId: string };
    expect(RA_STATUSES).toContain(model.status);
    expect(res.body.success).toBe(model.status !== 'Denied');
    expect(Buffer.byteLength(model.replyMessage, 'utf8')).toBeLessThanOrEqual(253);
    return model;
  }
  const statusOf = async (id: string) =>
    (await kit.t.database.dataSource.query('SELECT status, authenticator FROM access_requests WHERE id = $1', [id]))[0];

  it('RADIUS v1 with `t`: the answer is held until the user approves in Telegram, then Granted by the Telegram factor', async () => {
    const user = await kit.telegramUser('CORP\\tanya', { withCode: true });
    const after = kit.lastMessageId(user.chat);
    const held = radius('ra', radiusBody('CORP\\tanya', 't'));
    const question = await user.press(APPROVE, after);
    expect(question.text).toContain('Staff VPN');
    expect(question.text).toContain('198.51.100.23');
    expect(question.keyboard?.flat().map((b) => b.text)).toEqual([APPROVE, NOT_ME]);
    const model = asAdapter(await held);
    expect(model).toMatchObject({ status: 'Granted', authenticator: 'Telegram', authenticatorId: user.telegramAuthenticatorId });
    expect(await statusOf(model.id)).toEqual({ status: 'Granted', authenticator: 'Telegram' });
    // the message shows the decision, without buttons
    expect(kit.fake.messagesIn(user.chat.id).find((m) => m.messageId === question.messageId)?.keyboard).toBeNull();
  });

  it('RADIUS v1 with `m` for a Telegram user: a letter is a preference, Telegram asks; "it wasn\'t me" is Denied', async () => {
    const user = await kit.telegramUser('mark');
    const after = kit.lastMessageId(user.chat);
    const held = radius('ra', radiusBody('mark', 'm'));
    await user.press(NOT_ME, after);
    const model = asAdapter(await held);
    expect(model.status).toBe('Denied');
    expect(model.replyMessage).toBe('Доступ запрещён: вход отклонён на вашем устройстве.');
    expect(await statusOf(model.id)).toEqual({ status: 'Denied', authenticator: null });
  });

  it('RADIUS v2 with passCode null for a user whose only factor is Telegram: asked to approve, not prompted for a code', async () => {
    const user = await kit.telegramUser('vera');
    const after = kit.lastMessageId(user.chat);
    const held = radius('ra', radiusBody('vera', null));
    await user.press(APPROVE, after);
    expect(asAdapter(await held)).toMatchObject({ status: 'Granted', authenticator: 'Telegram' });
  });

  it('RADIUS v2 with passCode null for a user with a code factor: the code prompt, as always; `t` typed there asks Telegram', async () => {
    const user = await kit.telegramUser('CORP\\petr', { withCode: true });
    const first = asAdapter(await radius('ra', radiusBody('CORP\\petr', null)));
    expect(first.status).toBe('AwaitingAuthentication');
    const after = kit.lastMessageId(user.chat);
    const held = radius('ra/challenge', { identity: 'CORP\\petr', challenge: 't', requestId: first.id });
    await user.press(APPROVE, after);
    const model = asAdapter(await held);
    expect(model).toMatchObject({ id: first.id, status: 'Granted', authenticator: 'Telegram' });
  });

  it('no answer in time: Denied, "not confirmed in time", and a later press grants nothing', async () => {
    const user = await kit.telegramUser('nina');
    const after = kit.lastMessageId(user.chat);
    const held = radius('ra', radiusBody('nina', 't'));
    const question = await kit.fake.question(user.chat.id, after);
    const approve = question.keyboard?.flat().find((button) => button.text === APPROVE)?.callback_data as string;
    await kit.waitsHeld(1);
    kit.letWaitsExpire();
    const model = asAdapter(await held);
    expect(model.status).toBe('Denied');
    expect(model.replyMessage).toBe('Доступ запрещён: вход не подтверждён вовремя.');
    await kit.fake.press(user.chat, question.messageId, approve);
    expect(kit.fake.callbackAnswers.at(-1)?.text).toBe('This request has expired.');
    expect((await statusOf(model.id)).status).toBe('Denied');
  });

  it.each([
    ['a 5xx', { kind: 'error', status: 502 } as const],
    ['garbage', { kind: 'garbage' } as const],
    ['a 403 (the bot blocked)', { kind: 'error', status: 403, description: 'Forbidden: bot was blocked by the user' } as const],
  ])('the Bot API answering %s: Denied at once, "could not deliver", a 200 with the model', async (_, failure) => {
    const user = await kit.telegramUser(`down-${randomUUID().slice(0, 6)}`);
    kit.fake.failNext('sendMessage', failure, 10);
    const res = await radius('ra', radiusBody(user.identity, 't'));
    const model = asAdapter(res);
    expect(model.status).toBe('Denied');
    expect(model.replyMessage).toContain('не удалось доставить');
    expect((await statusOf(model.id)).status).toBe('Denied');
  });

  it('the directory server: `m` for a Telegram user waits for the approval; `m` for a code-only user is Denied, told to append the code', async () => {
    const user = await kit.telegramUser('ldap.bind');
    const after = kit.lastMessageId(user.chat);
    const held = bind('ldap.bind', 'm');
    await user.press(APPROVE, after);
    const granted = await held;
    expect(clientReading(granted.status)).toBe('answer');
    expect(granted.body.model.status).toBe('Granted');

    await totpUser(kit.t, kit.accountId, 'code.only');
    const refused = await bind('code.only', 'm');
    expect(clientReading(refused.status)).toBe('answer');
    expect(refused.body).toMatchObject({ success: false, model: { status: 'Denied' } });
    expect(refused.body.model.replyMessage).toContain('к паролю');
  });

  it('push fatigue: a fourth approval while three wait is Denied at once, "too many requests", and nothing is sent', async () => {
    const user = await kit.telegramUser('fatigue.user');
    const held = [0, 1, 2].map(() => radius('ra', radiusBody('fatigue.user', 't')));
    await kit.waitsHeld(3);
    const sent = kit.fake.messagesIn(user.chat.id).length;
    const fourth = asAdapter(await radius('ra', radiusBody('fatigue.user', 't')));
    expect(fourth.status).toBe('Denied');
    expect(fourth.replyMessage).toBe('Доступ запрещён: слишком много запросов. Повторите позже.');
    expect(kit.fake.messagesIn(user.chat.id)).toHaveLength(sent);
    kit.letWaitsExpire();
    expect((await Promise.all(held)).map((res) => res.body.model.status)).toEqual(['Denied', 'Denied', 'Denied']);
  });

  it('a client that hangs up while it waits ends its request: a later press grants nothing', async () => {
    const user = await kit.telegramUser('gone.user');
    const after = kit.lastMessageId(user.chat);
    const { port } = kit.t.app.getHttpServer().address() as AddressInfo;
    const body = JSON.stringify(radiusBody('gone.user', 't'));
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/access/requests/ra',
      method: 'POST',
      headers: { authorization: vpn.authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => undefined);
    req.end(body);
    const question = await kit.fake.question(user.chat.id, after);
    const approve = question.keyboard?.flat().find((button) => button.text === APPROVE)?.callback_data as string;
    await kit.waitsHeld(1);
    req.destroy();
    const [row] = await kit.t.database.dataSource.query(
      `SELECT a.id, a.account_id AS "accountId", a.access_request_id AS "requestId"
         FROM approvals a JOIN users u ON u.id = a.user_id WHERE u.identity = 'gone.user'`,
    );
    // the hang-up is heard by the server asynchronously: wait for its effect, not for a time
    const approvals = kit.t.app.get(ApprovalsRepository);
    while ((await approvals.statusOf(row.accountId, row.id)) === 'Pending') await new Promise((resolve) => setImmediate(resolve));
    expect(await approvals.statusOf(row.accountId, row.id)).toBe('Cancelled');
    while ((await statusOf(row.requestId)).status === 'AwaitingAuthentication') await new Promise((resolve) => setImmediate(resolve));
    expect(await statusOf(row.requestId)).toEqual({ status: 'Denied', authenticator: null });
    await kit.fake.press(user.chat, question.messageId, approve);
    expect(kit.fake.callbackAnswers.at(-1)?.text).toBe('This request has expired.');
    expect((await statusOf(row.requestId)).status).toBe('Denied');
  });
});
