import { randomUUID } from 'node:crypto';
import { totpUser } from './client-kit';
import { PhoneApprovalKit, startPhoneApprovalKit } from './phone-approval.testing';

const APPROVE = 'Yes, it is me';
const NOT_ME = "It wasn't me";
const PER_MINUTE = 20;

/**
 * The LDAP adapter (multifactor-ldap-adapter), replayed as it calls us (CLIENTS.md): on every bind
 * that needs a second factor it POSTs `/access/requests/la` with Basic resource credentials and the
 * camelCase body `{identity, email}` (email null when the directory has none), no code at all, and
 * holds the request up to 65 s. It reads the JSON case-sensitively and lets the user in only on
 * `model.status == "Granted"`; a 429 is a denial; a body that is not JSON (or a connection error)
 * counts as "API unreachable", which its default `bypass-second-factor-when-api-unreachable` turns
 * into a bind without a second factor, and a null model crashes its check.
 */
describe('client: LDAP adapter (la)', () => {
  let kit: PhoneApprovalKit;
  let ldap: Awaited<ReturnType<PhoneApprovalKit['t']['newResource']>>;

  beforeAll(async () => {
    kit = await startPhoneApprovalKit({ accessRequestsPerMinute: PER_MINUTE });
    ldap = await kit.t.newResource(kit.accountId, 'LDAP proxy');
  });
  afterAll(() => kit?.close());

  const la = (identity: string, email: string | null = null, resource = ldap) =>
    kit.t
      .http()
      .post('/access/requests/la')
      .set('Authorization', resource.authorization)
      .set('mf-trace-id', `ldl-${randomUUID()}`)
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ identity, email }))
      .then((res) => res);

  /**
   * The adapter's reading: 429 → denied; a body it cannot deserialize → "unreachable" (a bypass by
   * default); otherwise granted exactly when model.status is "Granted" (a null model crashes it).
   */
  function asLdapAdapter(res: { status: number; text: string }): { access: 'granted' | 'denied'; model: Record<string, unknown> | null } {
    if (res.status === 429) return { access: 'denied', model: null };
    let body: { success?: unknown; model?: Record<string, unknown> | null };
    try {
      body = JSON.parse(res.text);
    } catch {
      throw new Error(`"API unreachable" (status ${res.status}): the adapter would let the user in`);
    }
    expect(res.status).toBe(200);
    expect(typeof body.success).toBe('boolean');
    const model = body.model ?? null;
    expect(model).not.toBeNull();
    // System.Text.Json cannot put null into its bool Bypassed
    expect(typeof model?.['bypassed']).toBe('boolean');
    return { access: model?.['status'] === 'Granted' ? 'granted' : 'denied', model };
  }

  it('granted: the bind waits while the user approves in Telegram; the model names the factor', async () => {
    const user = await kit.telegramUser('svc.ldap.anna');
    const after = kit.lastMessageId(user.chat);
    const held = la('svc.ldap.anna', 'anna@corp.example');
    const question = await user.press(APPROVE, after);
    // a call without a screen: approve or "it wasn't me", no numbers
    expect(question.keyboard?.flat().map((button) => button.text)).toEqual([APPROVE, NOT_ME]);
    const answer = asLdapAdapter(await held);
    expect(answer.access).toBe('granted');
    expect(answer.model).toMatchObject({ authenticator: 'Telegram', authenticatorId: user.telegramAuthenticatorId, bypassed: false });
    const [row] = await kit.t.database.dataSource.query('SELECT status, channel FROM access_requests WHERE id = $1', [
      answer.model?.['id'],
    ]);
    expect(row).toEqual({ status: 'Granted', channel: 'la' });
  });

  it('denied by the user ("it wasn\'t me"): Denied, and the rejection is journaled', async () => {
    const user = await kit.telegramUser('svc.ldap.boris');
    const after = kit.lastMessageId(user.chat);
    const held = la('svc.ldap.boris');
    await user.press(NOT_ME, after);
    const answer = asLdapAdapter(await held);
    expect(answer.access).toBe('denied');
    expect(answer.model?.['replyMessage']).toBe('Доступ запрещён: вход отклонён на вашем устройстве.');
    const journal = await kit.t.database.dataSource.query(
      `SELECT object, action FROM journal_events WHERE account_id = $1 AND subject = 'svc.ldap.boris' AND action = 'Reject'`,
      [kit.accountId],
    );
    expect(journal).toEqual([{ object: 'AccessRequest', action: 'Reject' }]);
  });

  it('not confirmed in time: Denied before the adapter gives up', async () => {
    const user = await kit.telegramUser('svc.ldap.clara');
    const after = kit.lastMessageId(user.chat);
    const held = la('svc.ldap.clara');
    await kit.fake.question(user.chat.id, after);
    await kit.waitsHeld(1);
    kit.letWaitsExpire();
    const answer = asLdapAdapter(await held);
    expect(answer.access).toBe('denied');
    expect(answer.model?.['replyMessage']).toBe('Доступ запрещён: вход не подтверждён вовремя.');
  });

  it('no approval factor (a code-only user): Denied at once, "no confirmation method is set up"', async () => {
    await totpUser(kit.t, kit.accountId, 'svc.ldap.dora');
    const res = await la('svc.ldap.dora');
    const answer = asLdapAdapter(res);
    expect(answer.access).toBe('denied');
    expect(answer.model?.['replyMessage']).toContain('способ подтверждения не настроен');
    expect(JSON.parse(res.text).message).toBe('Access denied: no confirmation method is set up. Set up Telegram or the mobile app first.');
  });

  it('an identity the account does not know: Denied with message UserNotRegistered, a whole model', async () => {
    const res = await la('nobody.here', 'nobody@corp.example');
    expect(asLdapAdapter(res).access).toBe('denied');
    expect(JSON.parse(res.text)).toMatchObject({ success: false, message: 'UserNotRegistered' });
  });

  it('too many binds from one resource: 429, which the adapter reads as a denial', async () => {
    // an account of one licence: its resource's limit is the floor, PER_MINUTE (4 per licence is less)
    const small = await kit.t.newAccount({ name: 'Small shop', licenses: 1 });
    const flooded = await kit.t.newResource(small.account.id, 'Flooded LDAP proxy');
    const statuses: number[] = [];
    for (let i = 0; i <= PER_MINUTE; i++) statuses.push((await la('nobody.here', null, flooded)).status);
    expect(statuses.slice(0, PER_MINUTE).every((status) => status === 200)).toBe(true);
    expect(statuses[PER_MINUTE]).toBe(429);
    expect(asLdapAdapter({ status: 429, text: '' }).access).toBe('denied');
  });
});
